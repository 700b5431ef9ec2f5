import { peakRssText } from "../core/memory";
import { curveExposedVerdicts, type ExposedVerdict, type SizeExposure } from "../experiment/exposure";
import { groupVerdictHeadline, type GroupBreakdown } from "../experiment/groups";
import type { KneeReport } from "../experiment/knee";
import {
  cheapestIndex,
  curveRows,
  flattenRow,
  gridConfigName,
  type GridVerdict,
  type SweepCurve,
  type SweepResult,
} from "../experiment/sweep";
import { marginText } from "../experiment/verdict";
import { formatP, percentNumber, signedPoints, thousands } from "../stats/format";
import {
  budgetGridTable,
  budgetSuffix,
  configCells,
  fromBestCells,
  plainVerdict,
  verdictJson,
} from "./sweep-budget-print";

/** `seamlab sweep`'s printers: the text tables and verdicts, seam exposure, and the JSON of exposure. */

const overlapName = (curve: SweepCurve) => (i: number) => `overlap ${curve.points[i].x}`;
const pct = (share: number) => `${(100 * share).toFixed(1)}%`;
const points = (x: number) => `${Number((100 * x).toFixed(2))} points`;

/** The lines under a curve's verdict: its exposed share, and what the exposed queries decide (or why nothing). */
export function describeExposure(curve: SweepCurve, exposure: SizeExposure, verdict: ExposedVerdict): string[] {
  const these = `these ${thousands(exposure.queries)} queries`;
  const others = exposure.queries - exposure.exposed;
  const ranking =
    verdict.unexposedFlips === 0
      ? "none of them changed hit between overlaps"
      : `${thousands(verdict.unexposedFlips)} of them changed hit anyway, through the ranking`;
  const lines = [
    `seam exposure: at some overlap swept (${exposure.overlaps.join(", ")}) a seam falls inside the gold span of ` +
      `${thousands(exposure.exposed)} of ${these}: overlap can change at most ${pct(exposure.share)} of ${these} ` +
      `(the other ${thousands(others)} sit whole in one chunk at every overlap swept; ${ranking})`,
  ];
  const name = overlapName(curve);
  if (exposure.exposed === 0) {
    lines.push(
      `verdict on the exposed queries: none exposed. No seam falls inside a gold span at any overlap swept, so ` +
        `every difference between these overlaps comes from the ranking (the text overlap adds to each chunk), ` +
        `not from seams.`,
    );
  } else if (verdict.why === "too few exposed queries") {
    lines.push(
      `verdict on the exposed queries: none. ${thousands(exposure.exposed)} exposed ` +
        `${exposure.exposed === 1 ? "query is" : "queries are"} too few to decide ` +
        `anything (${verdict.minQueries} needed); through seams, overlap can move the hit rate on ${these} by at ` +
        `most ${points(exposure.share)}.`,
    );
  } else if (verdict.why === "exposed share within the margin") {
    lines.push(
      `verdict on the exposed queries: none needed. Through seams no overlap swept can move the hit rate on ${these} ` +
        `by more than ${points(exposure.share)}, within the ${marginText(verdict.margin)} margin: the cheapest ` +
        `overlap is as good as any here, ranking aside.`,
    );
  } else if (verdict.decision && verdict.exposedMargin !== null) {
    const d = verdict.decision;
    lines.push(
      `verdict on the ${thousands(exposure.exposed)} exposed queries (the ${marginText(verdict.margin)} margin over ` +
        `all queries is ${points(verdict.exposedMargin)} on them): ${plainVerdict(d, name)}`,
    );
    if (d.choice !== d.best) {
      const c = d.configs[d.choice].fromBest;
      const s = exposure.share;
      lines.push(
        `  in points of all queries (x ${pct(s)}, ranking aside): ${name(d.choice)} is ` +
          `${signedPoints(-c.diff * s)} from the best [${signedPoints(-c.high * s)}, ${signedPoints(-c.low * s)}], ` +
          `against the ${marginText(verdict.margin)} margin`,
      );
    }
  }
  return lines;
}

function exposedVerdictJson(curve: SweepCurve, verdict: ExposedVerdict) {
  const sentences = verdict.decision && verdictJson(verdict.decision, overlapName(curve));
  return { ...verdict, ...(sentences ?? { verdict: null, verdictShort: null }) };
}

const ratio = (x: number | null) => (x === null ? "  -  " : `${x.toFixed(2)}x`);

function describeKnee(knee: KneeReport): string[] {
  return [
    `second opinion on the shape: Kneedle ${knee.kneedle ? `overlap ${knee.kneedle.x}` : "none"}, plateau rule ` +
      `overlap ${knee.plateau ? `${knee.plateau.x} (${knee.plateau.rule})` : "none"}, ` +
      `${knee.agree ? "agree" : "disagree"}`,
    ...knee.notes.map((note) => `  note: ${note}`),
  ];
}

export function describeGroups(groups: GroupBreakdown[], curve: SweepCurve): string[] {
  const x = (i: number) => curve.points[i].x;
  const name = overlapName(curve);
  const pick = x(curve.decision.choice);
  const base = x(curve.decision.baseline);
  const baseHeader = `hit rate % @ overlap ${base}`;
  const pickHeader = `hit rate % @ overlap ${pick}`;
  const differ = groups.filter((g) => g.differs).map((g) => g.group);
  return [
    "",
    `by group (${curve.splitter} size ${curve.size}): overlap ${pick} against ${base} on each group's queries, and ` +
      `each group's own verdict`,
    `group                     queries  ${baseHeader}  ${pickHeader}  ${pick}-${base} (pts) [paired 95% CI]  ` +
      `McNemar p  own verdict`,
    ...groups.map((g) => {
      const d = g.pickVersusBaseline;
      return [
        g.group.slice(0, 24).padEnd(24),
        String(g.queries).padStart(7),
        percentNumber(g.decision.configs[curve.decision.baseline].rate).padStart(baseHeader.length),
        percentNumber(g.decision.configs[curve.decision.choice].rate).padStart(pickHeader.length),
        `${signedPoints(d.diff)} [${signedPoints(d.low)}, ${signedPoints(d.high)}]`.padEnd(27),
        formatP(d.mcnemarP).padStart(9),
        groupVerdictHeadline(g, name) + (g.differs ? "  <- wants another overlap" : ""),
      ].join("  ");
    }),
    differ.length === 0
      ? "no group's own decided verdict differs from the whole corpus's"
      : `groups whose own verdict differs from overlap ${pick}: ${differ.join(", ")}`,
  ];
}

function describeGrid(grid: GridVerdict, source: string): string[] {
  const name = (i: number) => gridConfigName(grid.rows[i]);
  const lines = grid.contextBudget
    ? budgetGridTable(grid)
    : [
        "",
        `${grid.splitter}, size x overlap, k=${grid.k}${grid.reranker !== "none" ? ` -> ${grid.reranker}` : ""} ` +
          `@${grid.finalK} (cheapest = fewest vectors stored)`,
        "size  overlap  share  chunks  hit rate %  best-it (pts) [paired 95% CI]  status",
        ...grid.rows.map((row, i) =>
          [
            ...configCells(row.config.splitter),
            String(row.seams.chunks).padStart(6),
            percentNumber(grid.decision.configs[i].rate).padStart(10),
            ...fromBestCells(grid.decision, i),
          ].join("  "),
        ),
      ];
  lines.push(`verdict over size x overlap on ${source}: ${plainVerdict(grid.decision, name)}`);
  if (!grid.contextBudget)
    lines.push(
      `  note: hit rate@${grid.finalK} favours large chunks, since ${grid.finalK} of them carry more text into the ` +
        `prompt; weigh the context size too.`,
    );
  const cheapest = name(cheapestIndex(grid.decision));
  if (grid.prices.length === 0)
    return [...lines, `price per point: no config has a higher hit rate than the cheapest, ${cheapest}`];
  return [
    ...lines,
    `price per extra point of hit rate over the cheapest, ${cheapest} (this corpus, the cost model's prices):`,
    ...grid.prices.map(
      (p) =>
        `  ${name(p.index)}: +${p.points.toFixed(1)} points for ${(p.extraVectorBytes / 1e6).toFixed(1)} ` +
        `MB of vectors, ${thousands(p.extraTokens)} tokens, ` +
        `$${p.extraDollars.toFixed(4)}: ${(p.bytesPerPoint / 1e6).toFixed(2)} MB, ` +
        `${thousands(p.tokensPerPoint)} tokens, $${p.dollarsPerPoint.toFixed(4)} per point`,
    ),
  ];
}

export function printText(
  result: SweepResult,
  corpus: string,
  queryLabel: string,
  drops: string,
  exposureLines: (index: number) => string[],
): void {
  // the queries with what their source dropped: "301 header queries (## and ###; ...)"
  const source = queryLabel.endsWith(")") ? `${queryLabel.slice(0, -1)}; ${drops})` : `${queryLabel} (${drops})`;
  const lines = [
    `corpus ${corpus}: ${source}; ${result.total} configs (${result.cached} cached, ${result.computed} ` +
      `computed) in ${(result.elapsedMs / 1000).toFixed(1)} s on ${result.workers} worker(s), ${peakRssText()}`,
  ];
  result.curves.forEach((curve, curveIndex) => {
    // Name the retriever (and so the embedder, for dense/hybrid) the way the rows measured it.
    const measuredBy = result.rows.find(
      (r) => r.config.splitter.splitter === curve.splitter && r.config.retrieval.k === curve.k,
    );
    // the curve's y as its column header: "recall@5 %" or "hit rate@5 %", without the @k at a context budget
    const metricName = curve.metric === "hitRate" ? "hit rate" : "recall";
    const metric = `${metricName}${curve.contextBudget ? "" : `@${curve.finalK}`} %`;
    lines.push(
      "",
      `${curve.splitter} size ${curve.size} ${curve.unit}, ` +
        (curve.contextBudget
          ? budgetSuffix(curve).slice(2)
          : `k=${curve.k}${curve.reranker !== "none" ? ` -> ${curve.reranker}` : ""} @${curve.finalK}`),
      ...(measuredBy ? [`retriever: ${measuredBy.retrieval.retriever}`] : []),
      `overlap  chunks  zero-overlap seams %  pairs kept %  ${metric}  95% CI          distinct  tokens  storage  ` +
        "best-it (pts) [paired 95% CI]  McNemar p  status",
    );
    curve.points.forEach((point, index) => {
      const row = curveRows(result.rows, curve)[index];
      if (!row) return;
      const f = flattenRow(row);
      const [fromBest, status] = fromBestCells(curve.decision, index);
      const ci = `[${percentNumber(point.low as number)}, ${percentNumber(point.high as number)}]`;
      lines.push(
        [
          String(point.overlap).padStart(7),
          String(f.chunks).padStart(6),
          // a share of no seams is no number (as `seams` says)
          (row.seams.seams === 0 ? "none" : Number(f.zeroOverlapPct).toFixed(1)).padStart(20),
          Number(f.pairsKeptPct).toFixed(1).padStart(12),
          percentNumber(point.y).padStart(metric.length),
          ci.padEnd(14),
          Number(f.meanDistinct).toFixed(2).padStart(8),
          ratio(point.tokensRatio).padStart(6),
          ratio(point.storageRatio).padStart(7),
          fromBest,
          formatP(curve.decision.configs[index].fromBest.mcnemarP).padStart(9),
          status,
        ].join("  "),
      );
    });
    lines.push(
      `verdict (hit rate, paired) on ${source}: ${plainVerdict(curve.decision, overlapName(curve))}`,
      ...exposureLines(curveIndex),
      ...describeKnee(curve.knee),
    );
  });
  for (const grid of result.grids) lines.push(...describeGrid(grid, source));
  if (result.interrupted)
    lines.push(
      "",
      "interrupted: the table shows the finished configs only; re-run to complete (finished ones are cached).",
    );
  process.stdout.write(lines.join("\n") + "\n");
}

/** The size x overlap verdicts as `--json` prints them: each decision (indexes into its configs) and its words. */
export function gridsJson(grids: readonly GridVerdict[]) {
  return grids.map((grid) => ({
    splitter: grid.splitter,
    k: grid.k,
    finalK: grid.finalK,
    reranker: grid.reranker,
    configs: grid.rows.map((row) => ({ size: row.config.splitter.size, overlap: row.config.splitter.overlap })),
    contextBudget: grid.contextBudget,
    costs: grid.costs,
    plainHitRates: grid.plainHitRates,
    decision: grid.decision,
    prices: grid.prices,
    ...verdictJson(grid.decision, (i) => gridConfigName(grid.rows[i])),
  }));
}

/** The curves as `--json` prints them; `exposed` is the paired rule on the exposed queries only (or null). */
export function curvesJson(curves: readonly SweepCurve[], exposed: ReturnType<typeof curveExposedVerdicts>) {
  return curves.map((curve, c) => ({
    ...curve,
    ...verdictJson(curve.decision, overlapName(curve)),
    exposed: exposed[c] ? exposedVerdictJson(curve, exposed[c]!.verdict) : null,
  }));
}

export function groupsJson(groups: readonly GroupBreakdown[], curve: SweepCurve) {
  return groups.map((g) => ({
    group: g.group,
    queries: g.queries,
    differs: g.differs,
    pickVersusBaseline: g.pickVersusBaseline,
    verdict: groupVerdictHeadline(g, overlapName(curve)),
    tooFewQueries: g.tooFewQueries,
    decision: g.decision,
  }));
}
