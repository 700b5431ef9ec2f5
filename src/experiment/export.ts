// `sweep --export chosen.json`: the chosen config, what its verdict rests on, how to get it again, and snippets to
// paste, in one file so they cannot drift apart. No time of day goes in: the same sweep exports the same bytes.
import { gitCommitOrNull, projectRoot, readPackageJson, seamlabVersion } from "../core/project";
import { splitterSnippets, type SnippetTarget, type SplitterSnippet } from "../splitters/snippets";
import type { EvaluationInputs } from "../retrieval/inputs";
import { isSquadFile } from "../retrieval/inputs";
import { hashDocs, hashQueries } from "./cache";
import type { RetrievalSetting } from "./grid";
import type { ContextBudget } from "../retrieval/context-budget";
import { curveRows, gridConfigName, type SweepResult } from "./sweep";
import { marginText, verdictHeadline, verdictText } from "./verdict";

/** The marker field every export carries: `check` and `--force` trust nothing without it. */
export const EXPORT_MARKER = "seamlab chosen config";
export const EXPORT_FORMAT = 1;

export type ChosenExport = NonNullable<ReturnType<typeof chosenExport>>;
type Snippets = Record<SnippetTarget, Omit<SplitterSnippet, "target">>;

/** "top 5 by bm25", "top 20 by bm25 -> mmr keeps 5", "top chunks up to 5,000 chars by bm25", ... */
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

/** The one verdict a sweep can export: its grid's (several sizes) or its first curve's. */
function exportedVerdict(result: SweepResult) {
  const grid = result.grids[0];
  if (grid) return { decision: grid.decision, rows: grid.rows, name: (i: number) => gridConfigName(grid.rows[i]) };
  const curve = result.curves[0];
  if (!curve) return undefined;
  return {
    decision: curve.decision,
    rows: curveRows(result.rows, curve),
    name: (i: number) => `overlap ${curve.points[i].x}`,
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

function hasFlag(argv: readonly string[], flag: string): boolean {
  return argv.some((item) => flagName(item) === flag);
}

/** argv with `--flag value` in place of any given one (appended when absent). */
export function withFlag(argv: readonly string[], flag: string, value: string): string[] {
  return [...withoutFlags(argv, { [flag]: 1 }), `--${flag}`, value];
}

/**
 * The sweep flags that give the same verdict again: presentation and machine flags dropped, `--budget` replaced by
 * the query sample it chose, and defaults a later seamlab may change pinned (corpus, queries, margin, budget).
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

interface ExportContext {
  /** The flags after `sweep`, as given. */
  argv: readonly string[];
  inputs: EvaluationInputs;
  result: SweepResult;
  version: string;
  commit: string | null;
  /** The query count a `--budget` chose. */
  budgetQueries?: number;
  /** Pinned versions of the libraries the snippets name. */
  versions?: Record<string, string>;
}

const SNIPPET_LIBRARIES = ["@langchain/textsplitters", "@llamaindex/core"];

/** The seamlab that made an export: version, commit (null outside git) and the snippets' libraries' pins. */
export function exportStamp(root: string = projectRoot()) {
  const dependencies = readPackageJson(root).dependencies ?? {};
  const versions: Record<string, string> = {};
  for (const name of SNIPPET_LIBRARIES) if (dependencies[name]) versions[name] = dependencies[name];
  return { version: seamlabVersion(root), commit: gitCommitOrNull(root), versions };
}

/** The export of a finished sweep (undefined when it produced no verdict). */
export function chosenExport(context: ExportContext) {
  const verdict = exportedVerdict(context.result);
  if (!verdict) return undefined;
  const { decision, rows, name } = verdict;
  const row = rows[decision.choice];
  const { inputs, budgetQueries } = context;
  const argv = rerunArgv(context.argv, inputs, decision.margin, budgetQueries, row.config.retrieval.contextBudget);
  const state = String(decision.verdict);
  const origin =
    `seamlab ${context.version} sweep on ${inputs.name} (${inputs.queryLabel}), verdict ${state} at a ` +
    `${marginText(decision.margin)} margin`;
  const measured = `retrieving the ${retrievalText(row.config.retrieval)} per query`;
  const made = splitterSnippets(row.config.splitter, { origin, measured, versions: context.versions });
  const snippets = Object.fromEntries(made.map(({ target, ...snippet }) => [target, snippet])) as Snippets;
  return {
    seamlabExport: EXPORT_MARKER,
    format: EXPORT_FORMAT,
    seamlab: { version: context.version, commit: context.commit },
    corpus: {
      spec: inputs.corpus,
      name: inputs.name,
      documents: inputs.corpusSize.documents,
      chars: inputs.corpusSize.chars,
      // The documents and queries hashed as seamlab's cache keys hash them.
      hash: hashDocs(inputs.docs),
    },
    queries: {
      source: inputs.source.kind as string,
      label: inputs.queryLabel,
      count: inputs.queries.length,
      population: inputs.querySample.population,
      sample: inputs.querySample.description,
      hash: hashQueries(inputs.queries),
    },
    margin: decision.margin, // a proportion (0.01 = 1 point of hit rate)
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
    // `seamlab sweep` with these flags gives this verdict again.
    rerun: { argv, command: ["seamlab", "sweep", ...argv].map(shellQuote).join(" ") },
    snippets,
  };
}
