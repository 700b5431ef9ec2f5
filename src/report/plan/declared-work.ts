// What a notebook declares `--budget` may do with it, in its own metadata (`metadata.seamlab.work`) beside the cells
// tagged `budget:<section>`, read against its parameters cell: counts of work are lengths of its list parameters and
// reduced levels are picks from them, so a changed parameter changes the plan.
import { SeamlabError } from "../../core/errors";
import { thousands } from "../../stats/format";
import { basename } from "node:path";
import { parameterValues, readNotebook, type Notebook } from "../nbformat";

/** `n` × the product of the lengths of the list parameters `of`, counted only while `section` runs. */
export interface WorkTerm {
  n?: number;
  of?: string[];
  section?: string;
  /** One run of this value against each distinct other value of the list `of[0]`: others + 1, or 0 with none. */
  against?: string;
}

/** One parameter of a reduced level: picks from the notebook's own list, or a literal value. */
export interface ParameterPick {
  spaced?: number;
  first?: number;
  last?: number;
  all?: true;
  value?: unknown;
}

/** The shape of `metadata.seamlab.work`. */
export interface WorkMetadata {
  /** Lower keeps its work longer when the budget is short. */
  priority: number;
  /** Kernel bytes: `fixedBytes` + `bytesPerChar` × each character loaded; `measured` says where from. */
  memory: { bytesPerChar: number; fixedBytes?: number; measured?: string };
  /** The sampled seam cells (01: `seams`, 02: `damage`) the document pilot times. */
  pilot?: "seams" | "damage";
  /** Sections (cells tagged `budget:<name>`): their name on the page, and what running them holds in memory. */
  sections?: Record<string, { name: string; extraBytesPerChar?: number }>;
  /** Full-corpus splits (split, measure, index; an lsa fit counts as one) and query passes, as terms. */
  splits?: WorkTerm[];
  configs?: WorkTerm[];
  /** Full first. `ran` says what ran, with `{param}`, `{param.count}`, `{param.all}` (see below). */
  levels?: { parameters?: Record<string, ParameterPick>; skip?: string[]; ran: string }[];
  why?: string;
}

/** What a notebook does at one level of work: injected parameters, sections not run, and its cost in units. */
export interface WorkLevel {
  parameters: Record<string, unknown>;
  /** Sections (cells tagged `budget:<section>`) left out. */
  skip: string[];
  splits: number;
  configs: number;
  /** What ran, in words, for the page ("overlaps 0, 200, 400 (3 of 5); left out: the dense (lsa) sweep"). */
  ran: string;
  /** Kernel bytes per corpus character the sections this level runs hold beyond the least work. */
  extraBytesPerChar?: number;
  /** The level reads only a seeded document sample of about this many characters (its `documentChars`). */
  documentChars?: number;
}

/** A notebook's declared work, resolved against its parameters. */
export interface DeclaredWork {
  priority: number;
  kernelBytesPerChar: number;
  kernelFixedBytes: number;
  /** Full first; empty for a notebook the budget does not reduce (01, 02). */
  levels: WorkLevel[];
  /** The sampled cells the document pilot times, with their arguments from the parameters cell. */
  pilot?: SampledCells;
}

/** Each notebook's declared work, by its two-digit prefix. */
export type Declared = Readonly<Record<string, DeclaredWork>>;

export type SampledCells =
  | { kind: "seams"; splitters: string[]; size: number; overlap: number }
  | { kind: "damage"; splitters: string[]; size: number; overlaps: number[] };

/** Evenly spaced picks of `n` values of `values`, keeping both ends: the shape of a sweep with fewer points. */
export function spacedSubset<T>(values: readonly T[], n: number): T[] {
  if (n >= values.length) return [...values];
  if (n <= 1) return values.slice(0, 1);
  const picked = new Set<number>();
  for (let i = 0; i < n; i++) picked.add(Math.round((i * (values.length - 1)) / (n - 1)));
  return [...picked].sort((a, b) => a - b).map((i) => values[i]);
}

export function workMetadata(notebook: Notebook): WorkMetadata | undefined {
  return (notebook.metadata?.seamlab as { work?: WorkMetadata } | undefined)?.work;
}

/** A config as the pages name it (`recursive 1000/200`); anything else as itself. */
function valueText(value: unknown): string {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const c = value as Record<string, unknown>;
    if ("splitter" in c && "size" in c && "overlap" in c) return `${c.splitter} ${c.size}/${c.overlap}`;
    return JSON.stringify(value);
  }
  return String(value);
}

/** Resolves a notebook's declared work against its parameters cell; a SeamlabError names `where` and the bad field. */
export function declaredWork(notebook: Notebook, where: string): DeclaredWork | undefined {
  const meta = workMetadata(notebook);
  if (!meta) return undefined;
  const defaults = parameterValues(notebook);
  const fail = (what: string): never => {
    throw new SeamlabError(`${where}: metadata.seamlab.work ${what}. Fix the notebook's metadata or its parameters.`);
  };
  const list = (values: Record<string, unknown>, name: string, field: string): unknown[] => {
    const value = values[name];
    if (Array.isArray(value)) return value;
    return fail(`${field} names "${name}", which the parameters cell does not declare as a literal list`);
  };
  if (typeof meta.priority !== "number") fail("needs a priority (a number: lower keeps its work longer)");
  if (typeof meta.memory?.bytesPerChar !== "number") fail("needs memory.bytesPerChar (kernel bytes per character)");
  const sections = meta.sections ?? {};
  const count = (terms: WorkTerm[] | undefined, values: Record<string, unknown>, skip: readonly string[]) =>
    (terms ?? []).reduce((sum, term) => {
      if (term.section !== undefined && !(term.section in sections))
        fail(`names an undeclared section "${term.section}"`);
      if (term.section !== undefined && skip.includes(term.section)) return sum;
      if (term.against !== undefined) {
        const others = new Set(list(values, term.of?.[0] ?? "", "an `against` term").filter((v) => v !== term.against));
        return sum + (term.n ?? 1) * (others.size === 0 ? 0 : others.size + 1);
      }
      return sum + (term.of ?? []).reduce((p, name) => p * list(values, name, "a work term").length, term.n ?? 1);
    }, 0);
  const levels = (meta.levels ?? []).map((level, index): WorkLevel => {
    const parameters: Record<string, unknown> = {};
    for (const [name, pick] of Object.entries(level.parameters ?? {})) {
      if (!(name in defaults)) fail(`level ${index} injects "${name}", which the parameters cell does not declare`);
      if ("value" in pick) parameters[name] = pick.value;
      else {
        const all = list(defaults, name, `level ${index}'s pick`);
        if (pick.spaced !== undefined) parameters[name] = spacedSubset(all, pick.spaced);
        else if (pick.first !== undefined) parameters[name] = all.slice(0, pick.first);
        else if (pick.last !== undefined) parameters[name] = all.slice(-pick.last);
        else parameters[name] = [...all];
      }
    }
    if (typeof level.ran !== "string") fail(`level ${index} needs \`ran\`: what it runs, in words`);
    const skip = level.skip ?? [];
    for (const section of skip)
      if (!(section in sections)) fail(`level ${index} skips an undeclared section "${section}"`);
    const values = { ...defaults, ...parameters };
    // `{name}`: the level's value; `.all`: the notebook's own; `.count`: a list's length; `:and` joins with "and",
    // `:M` writes millions ("10 M")
    const ran = level.ran.replace(/\{(\w+)(\.all)?(\.count)?(?::(M|and))?\}/g, (_, name: string, all, counted, how) => {
      const from = all ? defaults : values;
      if (from[name] === undefined) return fail(`level ${index}'s text names "{${name}}", which has no literal value`);
      if (counted) return String(list(from, name, `level ${index}'s text`).length);
      if (how === "M") return `${thousands(Number(from[name]) / 1e6, 3)} M`;
      const value = from[name];
      return Array.isArray(value) ? value.map(valueText).join(how === "and" ? " and " : ", ") : valueText(value);
    });
    const extra = Object.entries(sections)
      .filter(([section]) => !skip.includes(section))
      .reduce((sum, [, s]) => sum + (s.extraBytesPerChar ?? 0), 0);
    const sampled = typeof parameters.documentChars === "number" ? parameters.documentChars : undefined;
    return {
      parameters,
      skip,
      splits: count(meta.splits, values, skip),
      configs: count(meta.configs, values, skip),
      ran: [ran, skip.length > 0 ? `left out: ${skip.map((s) => sections[s].name).join(", ")}` : ""]
        .filter(Boolean)
        .join("; "),
      ...(extra > 0 ? { extraBytesPerChar: extra } : {}),
      ...(sampled !== undefined ? { documentChars: sampled } : {}),
    };
  });
  const pilot = meta.pilot === undefined ? undefined : sampledCells(meta.pilot, defaults, fail);
  return {
    priority: meta.priority,
    kernelBytesPerChar: meta.memory.bytesPerChar,
    kernelFixedBytes: meta.memory.fixedBytes ?? 0,
    levels,
    ...(pilot ? { pilot } : {}),
  };
}

function sampledCells(kind: string, p: Record<string, unknown>, fail: (what: string) => never): SampledCells {
  const numbers = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "number");
  const ok = Array.isArray(p.splitters) && typeof p.size === "number";
  if (kind === "seams" && ok && typeof p.overlap === "number")
    return { kind, splitters: p.splitters as string[], size: p.size as number, overlap: p.overlap };
  if (kind === "damage" && ok && numbers(p.overlaps))
    return { kind, splitters: p.splitters as string[], size: p.size as number, overlaps: p.overlaps as number[] };
  return fail(`pilot "${kind}" needs literal splitters, size and ${kind === "seams" ? "overlap" : "overlaps"}`);
}

/** The declared work of each notebook file among `paths` that declares some, by its two-digit prefix. */
export function readDeclaredWork(paths: readonly string[]): Record<string, DeclaredWork> {
  const works = paths.map((path) => [basename(path).slice(0, 2), declaredWork(readNotebook(path), path)] as const);
  return Object.fromEntries(works.filter((entry): entry is [string, DeclaredWork] => entry[1] !== undefined));
}
