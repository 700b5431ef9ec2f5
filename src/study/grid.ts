// Notebook 03's size x overlap grid (its verdict, the price of each extra point) and what each folder would pick alone.
import { cheapestIndex, gridConfigName, curveRows } from "../experiment/sweep";
import type { GridVerdict, SweepCurve, SweepResult } from "../experiment/sweep";
import { groupBreakdown, groupVerdictHeadline, queryGroups, type GroupBreakdown } from "../experiment/groups";
import { marginText, verdictCard } from "../experiment/verdict";
import { formatP } from "../stats/format";
import type { RetrievalInputs } from "./inputs";
import { points, pointsInterval } from "./format";

const share = (overlap: number, size: number) => `${Math.round((100 * overlap) / size)}%`;
const round1 = (x: number) => Math.round(10 * x) / 10;

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
