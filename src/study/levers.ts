// Overlap or neighbours: one size with each overlap, and without overlap with each hit's neighbours or parent pasted,
// all at one context budget on the same queries; the paired verdict says which lever to pull.
import type { SweepResult } from "../experiment/sweep";
import { leverOverBudgetNotes, type LeverVerdict } from "../experiment/sweep-expand";
import { verdictHeadline, verdictText } from "../experiment/verdict";
import type { ContextBudget } from "../retrieval/context-budget";
import type { ParentSetting } from "../retrieval/expand";
import { formatP } from "../stats/format";
import type { RetrievalInputs } from "./inputs";
import { runStudyOverlapSweep } from "./sweep";
import { points, pointsInterval } from "./format";

export interface StudyLeverSpec {
  splitter: string;
  size: number;
  /** overlaps as percentages of the size, e.g. [0, 10, 20] */
  overlapShares: number[];
  /** neighbours on each side to try, e.g. [1, 2] */
  expand: number[];
  /** e.g. ["section", 3000] ("section" needs headings in the split text: not with header queries) */
  parents: ParentSetting[];
  k: number;
  /** characters or tokens per query; default size x k */
  contextBudget?: ContextBudget;
}

/** The cached sweep with its levers, run in this process; `levers[0]` is the size's verdict. */
export async function runStudyLevers(inputs: RetrievalInputs, spec: StudyLeverSpec): Promise<SweepResult> {
  return runStudyOverlapSweep(inputs, {
    splitter: spec.splitter,
    size: spec.size,
    overlaps: spec.overlapShares.map((percent) => ({ percent })),
    ks: [spec.k],
    expand: spec.expand,
    parents: spec.parents,
    contextBudget: spec.contextBudget,
  });
}

/** One row per lever: its costs, chunks pasted per query, hit rate at the budget and paired difference from the best. */
export function leverTableRows(lever: LeverVerdict): Record<string, number | string>[] {
  return lever.rows.map((row, i) => {
    const c = lever.decision.configs[i];
    const cost = lever.costs[i];
    return {
      lever: lever.names[i],
      vectors: cost.vectors,
      "index MB": Math.round(cost.storageBytes / 1e4) / 100,
      "hits pasted per query": Math.round(10 * row.retrieval.meanContextChunks) / 10,
      "prompt tokens per query": cost.promptTokens === null ? "" : Math.round(cost.promptTokens),
      "hit rate (%)": points(c.rate),
      "best − it (points)": points(c.fromBest.diff),
      "paired 95% CI": pointsInterval(c.fromBest.low, c.fromBest.high),
      "McNemar p": formatP(c.fromBest.mcnemarP),
      status: i === lever.decision.best ? "best" : c.status,
    };
  });
}

/** Bar rows: hit rate (y, percent) per lever (x), with the Wilson CI of each rate. */
export function leverChartRows(lever: LeverVerdict): Record<string, number | string>[] {
  return lever.rows.map((row, i) => ({
    x: lever.names[i],
    y: points(lever.decision.configs[i].rate),
    low: points(row.retrieval.hitRateCI.low),
    high: points(row.retrieval.hitRateCI.high),
  }));
}

/** The verdict in sentences (then what a window or parent over the budget did to a row) and as a headline. */
export function leverVerdictText(lever: LeverVerdict): { text: string; headline: string } {
  const name = (i: number) => lever.names[i];
  const text = [verdictText(lever.decision, name), ...leverOverBudgetNotes(lever)].join(" ");
  return { text, headline: verdictHeadline(lever.decision, name) };
}
