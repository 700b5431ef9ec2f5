import { SeamlabError } from "../core/errors";
import { canonicalJson } from "../core/canonical-json";
import { contextBudgetText, type ContextBudget } from "../retrieval/context-budget";
import { strategyName, topOverBudgetText, type ParentSetting } from "../retrieval/expand";
import { groupBy, type ExperimentConfig } from "./grid";
import type { CostedRow } from "./run";
import { decideByStorage } from "./verdict";

// Overlap or neighbours: with `--expand`/`--parents` a sweep also indexes each size without overlap and pastes each
// hit's neighbours or parent, at the same context budget; one paired verdict per size says which lever to pull.

interface LeverSpec {
  expand?: number[];
  parents?: ParentSetting[];
}

/** True when the sweep compares overlap with neighbours or parents, which need a budget. */
export function hasLevers(spec: LeverSpec): boolean {
  return (spec.expand ?? []).some((n) => n > 0) || (spec.parents ?? []).length > 0;
}

/** What a config costs: the index and the prompt (mean tokens and characters per query). */
export function configCosts(row: CostedRow) {
  return {
    vectors: row.seams.chunks,
    storageBytes: row.cost.storageBytes,
    promptTokens: row.retrieval.meanContextTokens ?? null,
    promptChars: row.retrieval.meanContextChars,
  };
}

/** True for a row that pastes neighbours or parents (not a plain overlap row). */
export function isLeverRow(row: { config: ExperimentConfig }): boolean {
  return (row.config.retrieval.expand ?? 0) > 0 || row.config.retrieval.parents !== undefined;
}

/** The configs plus, per budget config's size, overlap 0 alone and with each lever. */
export function withLevers(configs: readonly ExperimentConfig[], spec: LeverSpec): ExperimentConfig[] {
  if (!hasLevers(spec)) return [...configs];
  const seen = new Set(configs.map((config) => canonicalJson(config)));
  const out = [...configs];
  const add = (config: ExperimentConfig) => {
    const key = canonicalJson(config);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(config);
    }
  };
  for (const config of configs) {
    if (config.retrieval.contextBudget === undefined) continue;
    const base: ExperimentConfig = { splitter: { ...config.splitter, overlap: 0 }, retrieval: config.retrieval };
    add(base);
    for (const n of spec.expand ?? []) if (n > 0) add({ ...base, retrieval: { ...base.retrieval, expand: n } });
    for (const parents of spec.parents ?? []) add({ ...base, retrieval: { ...base.retrieval, parents } });
  }
  return out;
}

/** Refuses levers without the budget that makes them comparable. */
export function checkLevers(spec: LeverSpec, budget: ContextBudget | undefined): void {
  if (hasLevers(spec) && budget === undefined)
    throw new SeamlabError(
      "--expand and --parents compare at an equal prompt, so they need a context budget: give one --ks (no " +
        "--rerank, no --final-k) and, if you like, --context-budget N (not off).",
    );
}

/** One size's verdict over overlap, neighbour expansion and parents, at one budget. */
export type LeverVerdict = ReturnType<typeof leverVerdicts>[number];

/** A row's lever, named ("overlap 100", "overlap 0 + ±1 neighbours", "overlap 0 + section parents"), and its rank. */
function leverOf(row: CostedRow): { name: string; order: number[] } {
  const r = row.config.retrieval;
  const unit = row.config.splitter.unit === "tokens" ? "token" : "char";
  if (r.parents !== undefined)
    return { name: strategyName({ parents: r.parents }, unit), order: [2, r.parents === "section" ? 0 : r.parents] };
  if ((r.expand ?? 0) > 0)
    return { name: strategyName({ expand: r.expand as number }), order: [1, r.expand as number] };
  // Overlap 0 first: with equal vectors stored, ties go to the earlier row, so the plain chunk wins a tie.
  const overlap = row.config.splitter.overlap;
  return { name: `overlap ${overlap}`, order: [overlap === 0 ? 0 : 3, overlap] };
}

/** Per size at a budget, the paired verdict over its overlap and lever rows (groups holding a lever row only). */
export function leverVerdicts(
  rows: readonly CostedRow[],
  settings: { margin?: number; resamples?: number; seed?: number } = {},
) {
  const atBudget = rows.filter((row) => row.config.retrieval.contextBudget !== undefined);
  const groups = groupBy(atBudget, (row) => {
    const { overlap: _overlap, ...splitter } = row.config.splitter;
    const { expand: _expand, parents: _parents, ...retrieval } = row.config.retrieval;
    return canonicalJson([splitter, retrieval]);
  });
  return [...groups.values()]
    .filter((group) => group.some(isLeverRow))
    .map((group) => {
      // Overlap 0, neighbours (by n), parents, then the other overlaps; the decision points here.
      const sorted = [...group].sort((a, b) => {
        const [x, y] = [leverOf(a).order, leverOf(b).order];
        return x[0] - y[0] || x[1] - y[1];
      });
      return {
        splitter: sorted[0].config.splitter.splitter,
        size: sorted[0].config.splitter.size,
        contextBudget: sorted[0].config.retrieval.contextBudget as ContextBudget,
        rows: sorted,
        names: sorted.map((row) => leverOf(row).name),
        decision: decideByStorage(sorted, settings),
        costs: sorted.map(configCosts),
      };
    });
}

/** Queries of lever row `i` whose best chunk's window or parent alone was over the budget. */
export function leverOverBudget(lever: LeverVerdict, i: number): number {
  return lever.rows[i].retrieval.queriesTopOverBudget ?? 0;
}

/** A note per lever row whose window or parent did not fit the budget for some queries. */
export function leverOverBudgetNotes(lever: LeverVerdict): string[] {
  return lever.rows.flatMap((row, i) => {
    const note = topOverBudgetText(
      {
        name: lever.names[i],
        over: leverOverBudget(lever, i),
        queries: row.retrieval.queries,
        parents: row.config.retrieval.parents !== undefined,
      },
      contextBudgetText(lever.contextBudget),
    );
    return note === undefined ? [] : [note];
  });
}
