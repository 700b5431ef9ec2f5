/**
 * `sweep --export chosen.json`: the config a sweep chose, with what a team needs to publish it and to check it
 * later. The stamp says what the verdict rests on (the corpus and query hashes, which also key seamlab's cache;
 * the seamlab version and commit; the margin; the query source and count; the verdict's state) and how to get it
 * again (the sweep's own flags, with presentation and machine flags dropped and the defaults that could drift
 * pinned). Ready-to-paste LangChain JS / Python and LlamaIndex snippets go in the same file, so the numbers a team
 * pastes can never drift from the stamp they came with. No time of day goes in: the same sweep exports the same
 * bytes, so a CI can diff it.
 */
import { gitCommitOrNull, projectRoot, readPackageJson, seamlabVersion } from "../core/project";
import type { SplitterConfig } from "../splitters/config";
import { splitterSnippets, type SnippetTarget, type SplitterSnippet } from "../splitters/snippets";
import type { Decision } from "../stats/non-inferiority";
import type { EvaluationInputs } from "../retrieval/inputs";
import { isSquadFile } from "../retrieval/inputs";
import { hashDocs, hashQueries } from "./cache";
import type { RetrievalSetting } from "./grid";
import type { ContextBudget } from "../retrieval/context-budget";
import type { CostedRow } from "./run";
import { curveRows, gridConfigName, type SweepResult } from "./sweep";
import { marginText, verdictHeadline, verdictText } from "./verdict";

/** The marker field every export carries: `check` and `--force` trust nothing without it. */
export const EXPORT_MARKER = "seamlab chosen config";
export const EXPORT_FORMAT = 1;

export interface ChosenExport {
  seamlabExport: typeof EXPORT_MARKER;
  format: typeof EXPORT_FORMAT;
  seamlab: { version: string; commit: string | null };
  corpus: {
    spec: string;
    name: string;
    documents: number;
    chars: number;
    /** sha256 of the documents as split (ids, texts, order), as seamlab's cache keys hash them. */
    hash: string;
  };
  queries: {
    source: string;
    label: string;
    count: number;
    /** Queries the source gave before any sample. */
    population: number;
    sample: string;
    /** sha256 of the queries (ids, texts, gold spans), as seamlab's cache keys hash them. */
    hash: string;
  };
  /** Acceptable loss against the best, as a proportion (0.01 = 1 point of hit rate). */
  margin: number;
  verdict: {
    /** "decided", "leaning" or "undecided" (the decision rule's state, as it named it). */
    state: string;
    headline: string;
    text: string;
    choiceIsNonInferior: boolean;
    best: string;
    /** Cheaper configs the data could not settle (names), cheapest first. */
    candidates: string[];
    queriesNeeded: number | null;
  };
  chosen: {
    name: string;
    splitter: SplitterConfig;
    retrieval: RetrievalSetting;
    hitRate: number;
    queries: number;
  };
  /** `seamlab sweep` with these flags gives this verdict again (on the same corpus, seamlab and queries). */
  rerun: { argv: string[]; command: string };
  snippets: Record<SnippetTarget, Omit<SplitterSnippet, "target">>;
}

/**
 * How the chosen config retrieved, in words: "top 5 by bm25", "top 20 by bm25 -> mmr keeps 5", "top chunks up to
 * 5,000 chars by bm25", with neighbours or parents pasted when the sweep used them.
 */
export function retrievalText(r: RetrievalSetting): string {
  const by = `by ${r.retriever ?? "bm25"}`;
  const budget = r.contextBudget;
  let text = budget
    ? `top chunks up to ${budget.amount.toLocaleString("en-US")} ${budget.unit} ${by}`
    : `top ${r.k} ${by}`;
  if (r.finalK !== undefined && r.finalK !== r.k) text += ` -> ${r.reranker ?? "none"} keeps ${r.finalK}`;
  if (r.expand) text += `, each pasted with ${r.expand} neighbour${r.expand === 1 ? "" : "s"} on each side`;
  if (r.parents !== undefined)
    text += `, each pasted as its parent (${r.parents === "section" ? "its section" : `a ${r.parents} block`})`;
  return text;
}

/** The one verdict a sweep can export: its grid's (several sizes) or its curve's. */
export interface ExportedVerdict {
  decision: Decision;
  rows: CostedRow[];
  name: (index: number) => string;
}

/** The sweep's single verdict; a SeamlabError-free check: callers refuse sweeps with several first (see sweep). */
export function exportedVerdict(result: SweepResult): ExportedVerdict | undefined {
  const grid = result.grids[0];
  if (grid) return { decision: grid.decision, rows: grid.rows, name: (i) => gridConfigName(grid.rows[i]) };
  const curve = result.curves[0];
  if (!curve) return undefined;
  return {
    decision: curve.decision,
    rows: curveRows(result.rows, curve),
    name: (i) => `overlap ${curve.points[i].x}`,
  };
}

// Flags that change how a sweep runs or prints, never what it decides (with how many values each takes).
const DROPPED_FLAGS: Record<string, 0 | 1> = {
  export: 1,
  force: 0,
  json: 0,
  quiet: 0,
  workers: 1,
  "cache-dir": 1,
  "no-cache": 0,
  "clear-cache": 0,
  groups: 1,
  timings: 0,
  "per-doc": 0,
  help: 0,
  budget: 1,
};

/** The flag name of an argv item ("--corpus=x" and "--corpus" give "corpus"), or undefined for a value. */
function flagName(item: string): string | undefined {
  if (!item.startsWith("--")) return undefined;
  const eq = item.indexOf("=");
  return eq < 0 ? item.slice(2) : item.slice(2, eq);
}

/** `argv` without `flags` (and their values). */
export function withoutFlags(argv: readonly string[], flags: Record<string, 0 | 1>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = flagName(argv[i]);
    if (name === undefined || !(name in flags)) {
      out.push(argv[i]);
      continue;
    }
    if (flags[name] === 1 && !argv[i].includes("=")) i++;
  }
  return out;
}

/** Does argv give this flag? */
export function hasFlag(argv: readonly string[], flag: string): boolean {
  return argv.some((item) => flagName(item) === flag);
}

/** argv with `--flag value` in place of any given one (appended when absent). */
export function withFlag(argv: readonly string[], flag: string, value: string): string[] {
  return [...withoutFlags(argv, { [flag]: 1 }), `--${flag}`, value];
}

/**
 * The sweep flags that give the same verdict again: presentation and machine flags dropped, `--budget` replaced
 * by the query sample it chose, and the corpus, query source, margin and context budget pinned when they were defaults (a later seamlab
 * may change its defaults; the hashes would show it, but the re-run should not depend on it).
 */
export function rerunArgv(
  argv: readonly string[],
  inputs: EvaluationInputs,
  margin: number,
  budgetQueries?: number,
  budget?: ContextBudget,
): string[] {
  let out = withoutFlags(argv, DROPPED_FLAGS);
  if (budgetQueries !== undefined) out = withFlag(out, "query-sample", String(budgetQueries));
  if (!hasFlag(out, "margin")) out.push("--margin", String(Number((100 * margin).toPrecision(12))));
  if (!hasFlag(out, "context-budget") && budget) out.push("--context-budget", `${budget.amount}${budget.unit[0]}`);
  const queries = inputs.source.kind === "labelled" ? undefined : inputs.source.kind;
  if (!hasFlag(out, "queries") && queries !== undefined) out.push("--queries", queries);
  const squad = out.some((item, i) => flagName(item) === "queries" && isSquadFile(out[i + 1] ?? ""));
  if (!hasFlag(out, "corpus") && !squad) out.push("--corpus", inputs.corpus);
  return out;
}

/** A shell-safe rendering of an argv item. */
export function shellQuote(item: string): string {
  return /^[\w@%+=:,./-]+$/.test(item) ? item : `'${item.replace(/'/g, `'\\''`)}'`;
}

export interface ExportContext {
  /** The sweep's argv as given (the flags after `sweep`). */
  argv: readonly string[];
  inputs: EvaluationInputs;
  result: SweepResult;
  version: string;
  commit: string | null;
  /** The query count a `--budget` chose, when it chose one. */
  budgetQueries?: number;
  /** Pinned versions of the libraries the snippets name. */
  versions?: Record<string, string>;
}

/** The libraries the snippets name. */
const SNIPPET_LIBRARIES = ["@langchain/textsplitters", "@llamaindex/core"];

/**
 * What an export says of the seamlab that made it: its version, its commit (null outside a git checkout) and the pinned
 * versions of the libraries the snippets name (package.json), as `sweep --export` and the report's chosen.json both
 * write them.
 */
export function exportStamp(
  root: string = projectRoot(),
): Pick<ExportContext, "version" | "commit"> & { versions: Record<string, string> } {
  const dependencies = readPackageJson(root).dependencies ?? {};
  const versions: Record<string, string> = {};
  for (const name of SNIPPET_LIBRARIES) if (dependencies[name]) versions[name] = dependencies[name];
  return { version: seamlabVersion(root), commit: gitCommitOrNull(root), versions };
}

/** The export of a finished sweep (undefined when it produced no verdict, e.g. interrupted before any config). */
export function chosenExport(context: ExportContext): ChosenExport | undefined {
  const verdict = exportedVerdict(context.result);
  if (!verdict) return undefined;
  const { decision, rows, name } = verdict;
  const row = rows[decision.choice];
  const { inputs } = context;
  const argv = rerunArgv(
    context.argv,
    inputs,
    decision.margin,
    context.budgetQueries,
    row.config.retrieval.contextBudget,
  );
  const state = String(decision.verdict);
  const origin =
    `seamlab ${context.version} sweep on ${inputs.name} (${inputs.queryLabel}), verdict ${state} at a ` +
    `${marginText(decision.margin)} margin`;
  const snippets = {} as ChosenExport["snippets"];
  const measured = `retrieving the ${retrievalText(row.config.retrieval)} per query`;
  for (const { target, ...snippet } of splitterSnippets(row.config.splitter, {
    origin,
    measured,
    versions: context.versions,
  }))
    snippets[target] = snippet;
  return {
    seamlabExport: EXPORT_MARKER,
    format: EXPORT_FORMAT,
    seamlab: { version: context.version, commit: context.commit },
    corpus: {
      spec: inputs.corpus,
      name: inputs.name,
      documents: inputs.corpusSize.documents,
      chars: inputs.corpusSize.chars,
      hash: hashDocs(inputs.docs),
    },
    queries: {
      source: inputs.source.kind,
      label: inputs.queryLabel,
      count: inputs.queries.length,
      population: inputs.querySample.population,
      sample: inputs.querySample.description,
      hash: hashQueries(inputs.queries),
    },
    margin: decision.margin,
    verdict: {
      state,
      headline: verdictHeadline(decision, name),
      text: verdictText(decision, name).replace(/\*\*/g, ""),
      choiceIsNonInferior: decision.choiceIsNonInferior,
      best: name(decision.best),
      candidates: decision.candidates.map(name),
      queriesNeeded: decision.queriesNeeded,
    },
    chosen: {
      name: name(decision.choice),
      splitter: row.config.splitter,
      retrieval: row.config.retrieval,
      hitRate: row.retrieval.hitRate,
      queries: row.retrieval.queries,
    },
    rerun: { argv, command: ["seamlab", "sweep", ...argv].map(shellQuote).join(" ") },
    snippets,
  };
}
