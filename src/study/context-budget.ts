// Notebook 03 at an equal context budget: hit@k favours large chunks (k of them carry more text), so the size x overlap
// grid judges every size on the top chunks that fit one budget (plain hit@k beside it), with the price of each extra
// point and what each folder would pick alone, and overlap is weighed against pasting each hit's neighbours or parent
// at one budget. The budget parameter is read the way the CLI reads the flag (`report --context-budget 1200t`).
import { SeamlabError } from "../core/errors";
import { cheapestIndex, curveRows, gridConfigName } from "../experiment/sweep";
import type { GridVerdict, SweepCurve, SweepResult } from "../experiment/sweep";
import { groupBreakdown, groupVerdictHeadline, queryGroups, type GroupBreakdown } from "../experiment/groups";
import { leverOverBudgetNotes, type LeverVerdict } from "../experiment/sweep-expand";
import { marginText, verdictCard, verdictHeadline, verdictText } from "../experiment/verdict";
import { contextBudgetText, parseContextBudget, type ContextBudget } from "../retrieval/context-budget";
import type { ParentSetting } from "../retrieval/expand";
import { formatP } from "../stats/format";
import { wilsonInterval } from "../stats/proportion";
import type { RetrievalInputs } from "./inputs";
import { runStudyOverlapSweep, tokenSampleNote } from "./sweep";
import { pct, points, pointsInterval } from "./format";

const share = (overlap: number, size: number) => `${Math.round((100 * overlap) / size)}%`;
const round1 = (x: number) => Math.round(10 * x) / 10;

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
      "hits pasted per query": round1(row.retrieval.meanContextChunks),
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
      overlap: `${s.overlap} (${share(s.overlap, s.size)})`,
      vectors: cost.vectors,
      "index MB": Math.round(cost.storageBytes / 1e4) / 100,
      "chunks per query": round1(row.retrieval.meanContextChunks),
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

/** `heatmap` rows: hit rate per size (y) and overlap share (x). */
export function gridHeatmapRows(grid: GridVerdict): Record<string, number | string>[] {
  return grid.rows.map((row, i) => ({
    x: share(row.config.splitter.overlap, row.config.splitter.size),
    y: row.config.splitter.size,
    value: grid.decision.configs[i].rate,
  }));
}

/** What each extra point of hit rate over the cheapest config costs (this corpus, the cost model's prices). */
export function priceTableRows(grid: GridVerdict): Record<string, number | string>[] {
  const from = gridConfigName(grid.rows[cheapestIndex(grid.decision)]);
  return grid.prices.map((p) => ({
    config: gridConfigName(grid.rows[p.index]),
    against: from,
    "points gained": round1(p.points),
    "MB of vectors per point": Math.round(p.bytesPerPoint / 1e4) / 100,
    "tokens embedded per point": Math.round(p.tokensPerPoint),
    "$ per point (embedding)": Math.round(p.dollarsPerPoint * 1e4) / 1e4,
  }));
}

/** The per-folder breakdown of a curve (the result must hold the curve's rows). */
export function studyGroups(inputs: RetrievalInputs, result: SweepResult, curve: SweepCurve): GroupBreakdown[] {
  return groupBreakdown(curve, curveRows(result.rows, curve), queryGroups(inputs.queries));
}

/** One row per group: the corpus's pick against overlap 0 on the group's queries, and the group's own verdict. */
export function groupTableRows(
  groups: readonly GroupBreakdown[],
  curve: SweepCurve,
): Record<string, number | string>[] {
  const x = (i: number) => curve.points[i].x;
  const pick = x(curve.decision.choice);
  const base = x(curve.decision.baseline);
  return groups.map((g) => {
    const d = g.pickVersusBaseline;
    return {
      group: g.group,
      queries: g.queries,
      [`hit rate @${base} (%)`]: points(g.decision.configs[curve.decision.baseline].rate),
      [`hit rate @${pick} (%)`]: points(g.decision.configs[curve.decision.choice].rate),
      [`${pick} − ${base} (points)`]: points(d.diff),
      "paired 95% CI": pointsInterval(d.low, d.high),
      "McNemar p": formatP(d.mcnemarP),
      "own verdict": groupVerdictHeadline(g, (i) => `overlap ${x(i)}`),
      "wants another overlap": g.differs ? "yes" : "",
    };
  });
}

/** The grid verdict's index card: value and headline options. */
export function gridCardOf(grid: GridVerdict, context: string) {
  const name = (i: number) => gridConfigName(grid.rows[i]);
  const short = (i: number) => `${grid.rows[i].config.splitter.size}/${grid.rows[i].config.splitter.overlap}`;
  const card = verdictCard(grid.decision, name, short, " (size/overlap)");
  return {
    value: card.value,
    options: {
      label:
        "If the size may change too: size and overlap at an equal context budget " +
        `(paired rule, margin ${marginText(grid.decision.margin)})`,
      note: `${context}: ${card.note}`,
    },
  };
}

export function groupsFinding(groups: readonly GroupBreakdown[]): string {
  const differ = groups.filter((g) => g.differs).map((g) => g.group);
  return differ.length === 0
    ? "No folder's own settled verdict differs from the whole corpus's."
    : `**Folders that want another overlap:** ${differ.join(", ")}.`;
}
