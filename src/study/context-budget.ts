// Notebook 03's size x overlap grid at an equal context budget: hit@k favours large chunks (k of them carry more text),
// so every size is judged on the top chunks that fit one budget, with plain hit@k beside it. The notebook's budget
// parameter is read the way the CLI reads the same flag (`report --context-budget 1200t` means what `sweep` does).
import { SeamlabError } from "../core/errors";
import type { GridVerdict, SweepResult } from "../experiment/sweep";
import { gridConfigName } from "../experiment/sweep";
import { verdictText } from "../experiment/verdict";
import { contextBudgetText, parseContextBudget, type ContextBudget } from "../retrieval/context-budget";
import { formatP } from "../stats/format";
import { wilsonInterval } from "../stats/proportion";
import type { RetrievalInputs } from "./inputs";
import { tokenSampleNote } from "./row-sample";
import { runStudyOverlapSweep } from "./sweep";
import type { StudyLeverSpec } from "./levers";
import { points, pointsInterval, pct } from "./format";

/** The levers' spec with sizes for the size; `contextBudget` defaults to the median size x k. */
export type StudyBudgetSpec = Omit<StudyLeverSpec, "size" | "expand" | "parents"> & { sizes: number[] };

/** The cached size x overlap sweep judged at an equal context budget (plain hit@k rows run beside it). */
export async function runStudyBudgetGrid(inputs: RetrievalInputs, spec: StudyBudgetSpec): Promise<SweepResult> {
  return runStudyOverlapSweep(inputs, {
    splitter: spec.splitter,
    size: spec.sizes[0],
    sizes: spec.sizes,
    overlaps: spec.overlapShares.map((percent) => ({ percent })),
    ks: [spec.k],
    contextBudget: spec.contextBudget,
  });
}

/** The result's verdict at a budget (the first grid that has one), or undefined for a plain hit@k sweep. */
export function budgetGridOf(result: SweepResult): GridVerdict | undefined {
  return result.grids.find((grid) => grid.contextBudget !== undefined);
}

/** One row per config: both costs, the hit rate at the budget with its paired difference from the best, plain hit@k. */
export function budgetTableRows(grid: GridVerdict): Record<string, number | string>[] {
  return grid.rows.map((row, i) => {
    const c = grid.decision.configs[i];
    const s = row.config.splitter;
    const cost = grid.costs[i];
    const plain = grid.plainHitRates?.[i];
    return {
      size: s.size,
      overlap: `${s.overlap} (${Math.round((100 * s.overlap) / s.size)}%)`,
      vectors: cost.vectors,
      "index MB": Math.round(cost.storageBytes / 1e4) / 100,
      "chunks per query": Math.round(10 * row.retrieval.meanContextChunks) / 10,
      "prompt tokens per query": cost.promptTokens === null ? "" : Math.round(cost.promptTokens),
      "hit rate at the budget (%)": points(c.rate),
      [`plain hit rate@${grid.k} (%)`]: plain === null || plain === undefined ? "" : points(plain),
      "best − it (points)": points(c.fromBest.diff),
      "paired 95% CI": pointsInterval(c.fromBest.low, c.fromBest.high),
      "McNemar p": formatP(c.fromBest.mcnemarP),
      status: i === grid.decision.best ? "best" : c.status,
    };
  });
}

/** `barWithCI` rows per config ("size/overlap"): its hit rate at the budget and at plain hit@k, with Wilson CIs. */
export function budgetChartRows(grid: GridVerdict): Record<string, number | string>[] {
  const out: Record<string, number | string>[] = [];
  const queries = grid.decision.queries;
  const bar = (label: string, series: string, rate: number) => {
    const ci = wilsonInterval(Math.round(rate * queries), queries);
    out.push({ label, series, value: rate, low: ci.low, high: ci.high });
  };
  grid.rows.forEach((row, i) => {
    const label = `${row.config.splitter.size}/${row.config.splitter.overlap}`;
    bar(label, `equal budget (${contextBudgetText(grid.contextBudget!)})`, grid.decision.configs[i].rate);
    const plain = grid.plainHitRates?.[i];
    if (plain !== null && plain !== undefined) bar(label, `plain hit@${grid.k}`, plain);
  });
  return out;
}

/** What the budget changed: the plain hit@k leader against the budget's, the verdict, and any token estimate note. */
export function budgetFinding(grid: GridVerdict): string {
  const budget = grid.contextBudget!;
  const name = (i: number) => gridConfigName(grid.rows[i]);
  const plain = grid.plainHitRates ?? [];
  const plainBest = plain.reduce((best: number, rate, i) => ((rate ?? -1) > (plain[best] ?? -1) ? i : best), 0);
  const atBudget = grid.decision.configs;
  const lead =
    plain.length === 0
      ? ""
      : `At plain hit@${grid.k} the leader is ${name(plainBest)} (${pct(plain[plainBest] as number)}); at an equal ` +
        `budget of ${contextBudgetText(budget)} per query it scores ${pct(atBudget[plainBest].rate)}, and the best is ` +
        `${name(grid.decision.best)} (${pct(atBudget[grid.decision.best].rate)}). `;
  const note = tokenSampleNote(grid.rows);
  return lead + verdictText(grid.decision, name) + (note ? ` ${note}` : "");
}

/** The `contextBudget` parameter: "auto" or undefined (the median size × k), a number, or "5000c", "1200t". */
export function contextBudgetParameter(value: string | number | undefined): ContextBudget | undefined {
  if (value === undefined || value === "auto") return undefined;
  const text = typeof value === "number" ? String(value) : value;
  try {
    const budget = parseContextBudget(text, "chars");
    if (budget === null)
      throw new SeamlabError(
        `${text} turns the budget off, but the size comparison is always made at an equal budget (plain hit@k ` +
          `favours large chunks); give a number, or "auto".`,
      );
    return budget;
  } catch (error) {
    if (!(error instanceof SeamlabError)) throw error;
    throw new SeamlabError(`the contextBudget parameter: ${error.message}`);
  }
}
