// One overlap, or one per type (both with the `structure` splitter)? Scoring per-type choices on the queries they were
// chosen on would flatter them, so the choice is cross-fitted over two folds, and the paired test runs out of fold.
import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
import { DOC_TYPES, type DocType } from "../corpus/types";
import type { ExperimentConfig } from "../experiment/grid";
import { pickKnee } from "../experiment/knee";
import { runGrid, type CostedRow, type RunGridOptions } from "../experiment/run";
import { pairedComparison, type PairedComparison } from "../stats/paired";
import { decideByStorage, marginText, verdictHeadline } from "../experiment/verdict";
import { wilsonInterval } from "../stats/proportion";
import { pairedShown, pct, points, signedInterval, signedPointsText } from "./format";
import { pText, percentNumber, thousands } from "../stats/format";
import { studySweepInputs, type SplitterSweepSpec } from "./sweep";

export interface TypeSweepInputs {
  docs: readonly Doc[];
  queries: readonly Query[];
  /** the type of each query's gold, in query order */
  types: readonly DocType[];
}

/** `k` defaults to 5, `margin` (per type) to 0.01; types with fewer than `minQueries` (default 20) queries get a curve
 * but no recommendation and keep the uniform overlap. */
export type TypeSweepSpec = Omit<SplitterSweepSpec, "splitter" | "k"> & {
  k?: number;
  retriever?: string;
  minQueries?: number;
};

/** `recommended`: the decided overlap (null: leaning, undecided, or too few queries); `best`: the top hit rate's. */
export type TypeCurve = ReturnType<typeof typeCurve>;

export type TypeSweepResult = Awaited<ReturnType<typeof runTypeSweep>>;
/** Per fold: the choices and their index sizes; `comparison`: out-of-fold hits, per type (A) vs uniform (B). */
export type PerTypeVsUniform = TypeSweepResult["verdict"];

function configFor(size: number, perType: Record<DocType, number>, k: number, retriever?: string): ExperimentConfig {
  const settings: Record<string, { size: number; overlap: number }> = {};
  for (const type of DOC_TYPES) settings[type] = { size, overlap: perType[type] };
  return {
    splitter: { splitter: "structure", size, overlap: perType.prose, unit: "chars", extra: { perType: settings } },
    retrieval: { k, ...(retriever ? { retriever } : {}) },
  };
}

function uniform(overlap: number): Record<DocType, number> {
  return Object.fromEntries(DOC_TYPES.map((t) => [t, overlap])) as Record<DocType, number>;
}

function hitCount(row: CostedRow, indices: readonly number[]): number {
  return indices.filter((i) => row.hits[i] === "1").length;
}

/** The overlap with the highest hit rate over `indices` (ties: the smaller overlap). */
function bestOverlap(rows: readonly CostedRow[], overlaps: readonly number[], indices: readonly number[]): number {
  const rates = rows.map((row) => (indices.length === 0 ? 0 : hitCount(row, indices) / indices.length));
  return overlaps[rates.reduce((best, rate, i) => (rate > rates[best] + 1e-12 ? i : best), 0)];
}

/** One type's curve over the uniform sweep's rows (its queries: `indices`); no decision below `minQueries`. */
export function typeCurve(
  type: DocType | "all",
  rows: readonly CostedRow[],
  overlaps: readonly number[],
  indices: readonly number[],
  minQueries: number,
  margin?: number,
) {
  const n = indices.length;
  const points = rows.map((row, i) => {
    const hits = hitCount(row, indices);
    const ci = wilsonInterval(hits, n);
    return { x: overlaps[i], y: n === 0 ? 0 : hits / n, low: ci.low, high: ci.high, hits, queries: n };
  });
  const decision = n >= minQueries ? decideByStorage(rows, { margin }, indices) : null;
  return {
    type,
    queries: n,
    points,
    knee: pickKnee(points),
    decision,
    recommended: decision?.verdict === "decided" ? overlaps[decision.choice] : null,
    best: bestOverlap(rows, overlaps, indices),
  };
}

/** Runs the uniform sweep, the per-type curves and the cross-fitted per-type vs uniform comparison. */
export async function runTypeSweep(inputs: TypeSweepInputs, spec: TypeSweepSpec, options: RunGridOptions = {}) {
  const { size, overlaps } = spec;
  const k = spec.k ?? 5;
  const minQueries = spec.minQueries ?? 20;
  if (inputs.queries.length !== inputs.types.length) {
    throw new SeamlabError(`type sweep: ${inputs.queries.length} queries but ${inputs.types.length} query types.`);
  }
  if (inputs.queries.length < 2) throw new SeamlabError("type sweep: needs at least 2 queries.");
  const sorted = [...new Set(overlaps)].sort((a, b) => a - b);
  for (const o of sorted) {
    if (!Number.isInteger(o) || o < 0 || o >= size) {
      throw new SeamlabError(`--overlaps: ${o} must be a whole number from 0 to below --size (${size}).`);
    }
  }
  const uniformConfigs = sorted.map((o) => configFor(size, uniform(o), k, spec.retriever));
  // One document sample (for damage and tokens) for both grids, sized on the uniform configs.
  const sweepInputs = studySweepInputs(inputs, uniformConfigs);
  const uniformRows = (await runGrid(sweepInputs, uniformConfigs, { progressLabel: "uniform", ...options })).rows;
  const all = inputs.queries.map((_, i) => i);
  const ofType = (type: DocType, among: readonly number[]) => among.filter((i) => inputs.types[i] === type);
  const curves: TypeCurve[] = [typeCurve("all", uniformRows, sorted, all, minQueries, spec.margin)];
  for (const type of DOC_TYPES) {
    const indices = ofType(type, all);
    if (indices.length > 0) curves.push(typeCurve(type, uniformRows, sorted, indices, minQueries, spec.margin));
  }

  // Cross-fitting: fold f chooses, fold 1 - f is scored.
  const folds = [all.filter((i) => i % 2 === 0), all.filter((i) => i % 2 === 1)];
  const perTypeChoices = folds.map((fold) => {
    const choice = uniform(bestOverlap(uniformRows, sorted, fold));
    for (const type of DOC_TYPES) {
      const indices = ofType(type, fold);
      if (indices.length >= minQueries / 2) choice[type] = bestOverlap(uniformRows, sorted, indices);
    }
    return choice;
  });
  const perTypeConfigs = perTypeChoices.map((c) => configFor(size, c, k, spec.retriever));
  const perTypeRows = (await runGrid(sweepInputs, perTypeConfigs, { progressLabel: "per type", ...options })).rows;
  const perTypeIndexRatio = perTypeRows.map((r) => r.seams.indexRatio);
  const uniformChoices = folds.map((fold, f) => {
    const fits = sorted.filter((_, i) => uniformRows[i].seams.indexRatio <= perTypeIndexRatio[f] * 1.01);
    const pool = fits.length > 0 ? fits : [sorted[0]];
    const poolRows = pool.map((o) => uniformRows[sorted.indexOf(o)]);
    return bestOverlap(poolRows, pool, fold);
  });
  const uniformChosen = uniformChoices.map((o) => uniformRows[sorted.indexOf(o)]);
  const uniformIndexRatio = uniformChosen.map((r) => r.seams.indexRatio);
  // Query i is in fold i % 2, so it is scored with the other fold's choice.
  const outOfFold = (chosen: readonly CostedRow[]) => all.map((i) => chosen[1 - (i % 2)].hits[i] === "1");
  const comparison = pairedComparison(outOfFold(perTypeRows), outOfFold(uniformChosen));
  const answer = statedAnswer(comparison);
  return {
    curves,
    uniformRows,
    perTypeRows,
    verdict: { perTypeChoices, uniformChoices, perTypeIndexRatio, uniformIndexRatio, comparison, answer },
  };
}

/** "per-type settings gain X points [CI] at the same index size", or "no measurable gain: keep one setting". */
export function statedAnswer(c: PairedComparison): string {
  const ci = signedInterval(c.diffCI.low, c.diffCI.high);
  const shown = pairedShown(c);
  if (shown === "better") {
    return (
      `per-type settings gain ${percentNumber(c.diff)} points ${ci} of hit rate at the ` +
      `same index size (McNemar ${pText(c.mcnemarP)}, ${thousands(c.queries)} queries)`
    );
  }
  if (shown === "worse") {
    return `per-type settings lose ${percentNumber(-c.diff)} points ${ci} at the same index size: keep one setting`;
  }
  return (
    `no measurable gain: keep one setting (per type minus uniform: ${signedPointsText(c.diff)} ` +
    `points ${ci}, McNemar ${pText(c.mcnemarP)}, ${thousands(c.queries)} queries)`
  );
}

/** Curve rows for `lineWithBand`: one series per type, with its queries as `n` (a type under 30 gets its own panel). */
export function typeCurveRows(curves: readonly TypeCurve[]) {
  return curves.flatMap((c) => {
    const series = `${c.type} (${thousands(c.queries)} queries)`;
    return c.points.map(({ x, y, low, high }) => ({ x, y, low, high, series, n: c.queries }));
  });
}

/** One row per type: queries, hit rate at each overlap, the best overlap and the paired rule's recommendation. */
export function typeRecommendationRows(curves: readonly TypeCurve[]): Record<string, string | number>[] {
  return curves.map((c) => {
    const row: Record<string, string | number> = { type: c.type, queries: c.queries };
    for (const p of c.points) row[`hit rate % @ overlap ${p.x}`] = points(p.y);
    row.best = c.best;
    row.recommended =
      c.decision === null
        ? "too few queries"
        : c.decision.verdict === "decided"
          ? c.points[c.decision.choice].x
          : verdictHeadline(c.decision, (i) => String(c.points[i].x));
    return row;
  });
}

/** The caption of `typeRecommendationRows`' table, naming the paired rule's margin. */
export function typeRecommendationCaption(margin = 0.01): string {
  return (
    "Hit rate (%) per type and overlap; recommended = the paired rule on the type's own queries, at a " +
    `${marginText(margin)} margin`
  );
}

/** The index page's headline: a gain only when the paired rule shows one, else "no measurable gain". */
export function perTypeHeadline(v: PerTypeVsUniform): { value: string; options: { label: string; note: string } } {
  const c = v.comparison;
  const shown = pairedShown(c);
  const value =
    shown === "better"
      ? `${signedPointsText(c.diff)} points`
      : shown === "worse"
        ? `${signedPointsText(c.diff)} points: keep one setting`
        : "no measurable gain";
  return {
    value,
    options: {
      label: "Per-type overlaps against one overlap, same index size (paired, out of fold)",
      note: `${v.answer}.`,
    },
  };
}

/** The notebook's answer paragraph: the stated answer, out-of-fold hit rates, the overlaps and index sizes. */
export function perTypeVerdictFinding(v: PerTypeVsUniform): string {
  const ratios = (xs: readonly number[]) => xs.map((x) => `${x.toFixed(2)}x`).join(" / ");
  return (
    `**Answer:** ${v.answer}. Scored on the half of the queries they were not chosen on, per-type overlaps hit ` +
    `**${pct(v.comparison.hitRateA)}** and the best uniform overlap ` +
    `**${pct(v.comparison.hitRateB)}** (uniform overlap chosen on each half: ${v.uniformChoices.join(" / ")}); ` +
    `the index is ${ratios(v.perTypeIndexRatio)} the corpus per type against ${ratios(v.uniformIndexRatio)} uniform.`
  );
}

/** The notebook's sweep: the typed inputs' queries over their split-ready documents, in this process, cached. */
export function runTypeStudy(
  inputs: { sweepDocs: readonly Doc[]; queries: readonly Query[]; types: readonly DocType[] },
  spec: TypeSweepSpec,
) {
  const { sweepDocs: docs, queries, types } = inputs;
  return runTypeSweep({ docs, queries, types }, spec, { workers: 0, quiet: true });
}
