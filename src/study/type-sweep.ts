/**
 * One overlap, or one per type? An overlap sweep broken down by the type of each query's gold section, a
 * recommendation per type, and the best per-type setting against the best uniform one at equal index size.
 *
 * Both sides use the `structure` splitter, so only the overlap policy differs: "uniform o" gives every type
 * overlap o (`extra.perType` sets all types); "per type" gives each type its own overlap. Choosing the per-type
 * overlaps and then scoring them on the same queries would flatter them, so the choice is cross-fitted: queries
 * are split in two folds (alternating in query order); the overlaps chosen on one fold are scored on the other,
 * and the paired test runs over every query's out-of-fold outcome. The uniform comparator is chosen the same way,
 * among uniform settings whose index is no larger than the per-type index (equal index size, 1% tolerance).
 */
import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
import { DOC_TYPES, type DocType } from "../corpus/types";
import type { ExperimentConfig } from "../experiment/grid";
import { pickKnee, type KneeReport } from "../experiment/knee";
import { runGrid, type CostedRow, type RunGridOptions } from "../experiment/run";
import { pairedComparison, type PairedComparison } from "../stats/paired";
import { shownDirection } from "../stats/paired-score";
import type { Decision } from "../stats/non-inferiority";
import { decideRowsOn, marginText, verdictHeadline } from "../experiment/verdict";
import { wilsonInterval } from "../stats/proportion";
import { pct, points, signedPointsText } from "./format";
import { pText, percentNumber, thousands } from "../stats/format";
import { studySweepInputs } from "./row-sample";

export interface TypeSweepInputs {
  docs: readonly Doc[];
  queries: readonly Query[];
  /** the type of each query's gold, in query order */
  types: readonly DocType[];
}

export interface TypeSweepSpec {
  size: number;
  overlaps: number[];
  /** first-stage depth (default 5) */
  k?: number;
  retriever?: string;
  /** types with fewer queries get a curve but no recommendation and keep the uniform overlap (default 20) */
  minQueries?: number;
  /** the paired rule's margin per type, in proportion units (default 0.01, one point) */
  margin?: number;
}

export interface TypePoint {
  x: number;
  y: number;
  low: number;
  high: number;
  hits: number;
  queries: number;
}

export interface TypeCurve {
  type: DocType | "all";
  queries: number;
  points: TypePoint[];
  knee: KneeReport;
  /**
   * The paired rule on this type's own queries: the cheapest overlap (fewest vectors stored) within the margin of
   * the type's best, or leaning/undecided with the queries that would settle it; null when the type has too few
   * queries.
   */
  decision: Decision | null;
  /** The decided overlap of `decision` (null: leaning, undecided, or too few queries). */
  recommended: number | null;
  /** the overlap with the highest hit rate (ties: the smaller) */
  best: number;
}

export interface PerTypeVsUniform {
  /** the per-type overlaps chosen on each fold */
  perTypeChoices: Record<DocType, number>[];
  /** the uniform overlap chosen on each fold (at most the per-type index size) */
  uniformChoices: number[];
  /** index size (chunk chars / corpus chars) of each fold's per-type config and uniform comparator */
  perTypeIndexRatio: number[];
  uniformIndexRatio: number[];
  /** out-of-fold hits: per type (A) vs uniform (B) */
  comparison: PairedComparison;
  /** the stated answer */
  answer: string;
}

export interface TypeSweepResult {
  curves: TypeCurve[];
  uniformRows: CostedRow[];
  perTypeRows: CostedRow[];
  verdict: PerTypeVsUniform;
}

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

function hitRate(row: CostedRow, indices: readonly number[]): { hits: number; n: number } {
  let hits = 0;
  for (const i of indices) if (row.hits[i] === "1") hits++;
  return { hits, n: indices.length };
}

/** The overlap with the highest hit rate over `indices` (ties: the smaller overlap). */
function bestOverlap(rows: readonly CostedRow[], overlaps: readonly number[], indices: readonly number[]): number {
  let best = overlaps[0];
  let bestRate = -1;
  rows.forEach((row, i) => {
    const { hits, n } = hitRate(row, indices);
    const rate = n === 0 ? 0 : hits / n;
    if (rate > bestRate + 1e-12) {
      bestRate = rate;
      best = overlaps[i];
    }
  });
  return best;
}

/**
 * One type's curve over the uniform sweep's rows: hit rate per overlap on the type's queries (`indices`), the knee,
 * the best overlap and the paired rule's recommendation (null decision below `minQueries`).
 */
export function typeCurve(
  type: DocType | "all",
  rows: readonly CostedRow[],
  overlaps: readonly number[],
  indices: readonly number[],
  minQueries: number,
  margin?: number,
): TypeCurve {
  const points: TypePoint[] = rows.map((row, i) => {
    const { hits, n } = hitRate(row, indices);
    const ci = wilsonInterval(hits, n);
    return { x: overlaps[i], y: n === 0 ? 0 : hits / n, low: ci.low, high: ci.high, hits, queries: n };
  });
  const knee = pickKnee(points);
  const decision =
    indices.length >= minQueries
      ? decideRowsOn(rows, indices, (row) => row.cost.storageBytes, { baseline: 0, margin })
      : null;
  return {
    type,
    queries: indices.length,
    points,
    knee,
    decision,
    recommended: decision?.verdict === "decided" ? overlaps[decision.choice] : null,
    best: bestOverlap(rows, overlaps, indices),
  };
}

/** Runs the uniform sweep, the per-type curves and the cross-fitted per-type vs uniform comparison. */
export async function runTypeSweep(
  inputs: TypeSweepInputs,
  spec: TypeSweepSpec,
  options: RunGridOptions = {},
): Promise<TypeSweepResult> {
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
  const byType = new Map<DocType, number[]>();
  inputs.types.forEach((t, i) => {
    if (!byType.has(t)) byType.set(t, []);
    byType.get(t)!.push(i);
  });
  const curves: TypeCurve[] = [typeCurve("all", uniformRows, sorted, all, minQueries, spec.margin)];
  for (const type of DOC_TYPES) {
    const indices = byType.get(type);
    if (indices) curves.push(typeCurve(type, uniformRows, sorted, indices, minQueries, spec.margin));
  }

  // Cross-fitting: fold f chooses, fold 1 - f is scored.
  const folds = [all.filter((i) => i % 2 === 0), all.filter((i) => i % 2 === 1)];
  const perTypeChoices: Record<DocType, number>[] = [];
  for (const fold of folds) {
    const fallback = bestOverlap(uniformRows, sorted, fold);
    const choice = uniform(fallback);
    for (const type of DOC_TYPES) {
      const indices = (byType.get(type) ?? []).filter((i) => fold.includes(i));
      if (indices.length >= minQueries / 2) choice[type] = bestOverlap(uniformRows, sorted, indices);
    }
    perTypeChoices.push(choice);
  }
  const perTypeRows = (
    await runGrid(
      sweepInputs,
      perTypeChoices.map((c) => configFor(size, c, k, spec.retriever)),
      { progressLabel: "per type", ...options },
    )
  ).rows;
  const uniformChoices: number[] = [];
  const uniformIndexRatio: number[] = [];
  const perTypeIndexRatio = perTypeRows.map((r) => r.seams.indexRatio);
  const perTypeHits: boolean[] = new Array(all.length).fill(false);
  const uniformHits: boolean[] = new Array(all.length).fill(false);
  folds.forEach((fold, f) => {
    const budget = perTypeIndexRatio[f] * 1.01;
    const eligible = uniformRows.map((r, i) => ({ r, o: sorted[i] })).filter((x) => x.r.seams.indexRatio <= budget);
    const pool = eligible.length > 0 ? eligible : [{ r: uniformRows[0], o: sorted[0] }];
    const chosen = bestOverlap(
      pool.map((x) => x.r),
      pool.map((x) => x.o),
      fold,
    );
    const row = uniformRows[sorted.indexOf(chosen)];
    uniformChoices.push(chosen);
    uniformIndexRatio.push(row.seams.indexRatio);
    for (const i of folds[1 - f]) {
      perTypeHits[i] = perTypeRows[f].hits[i] === "1";
      uniformHits[i] = row.hits[i] === "1";
    }
  });
  const comparison = pairedComparison(perTypeHits, uniformHits);
  return {
    curves,
    uniformRows,
    perTypeRows,
    verdict: {
      perTypeChoices,
      uniformChoices,
      perTypeIndexRatio,
      uniformIndexRatio,
      comparison,
      answer: statedAnswer(comparison),
    },
  };
}

/** The paired rule's reading of the comparison: the CI excludes 0 and the exact McNemar test agrees. */
const shownOf = (c: PairedComparison) => shownDirection({ ...c.diffCI, mcnemarP: c.mcnemarP }, c.level);

/** "per-type settings gain X points [CI] at the same index size", or "no measurable gain: keep one setting". */
export function statedAnswer(c: PairedComparison): string {
  const ci = `[${signedPointsText(c.diffCI.low)}, ${signedPointsText(c.diffCI.high)}]`;
  const shown = shownOf(c);
  if (shown === "above") {
    return (
      `per-type settings gain ${percentNumber(c.diff)} points ${ci} of hit rate at the ` +
      `same index size (McNemar ${pText(c.mcnemarP)}, ${thousands(c.queries)} queries)`
    );
  }
  if (shown === "below") {
    return `per-type settings lose ${percentNumber(-c.diff)} points ${ci} at the same index size: keep one setting`;
  }
  return (
    `no measurable gain: keep one setting (per type minus uniform: ${signedPointsText(c.diff)} ` +
    `points ${ci}, McNemar ${pText(c.mcnemarP)}, ${thousands(c.queries)} queries)`
  );
}

/** Curve rows for `lineWithBand`: one series per type, with its queries as `n` (a type under 30 gets its own panel). */
export function typeCurveRows(
  curves: readonly TypeCurve[],
): { x: number; y: number; low: number; high: number; series: string; n: number }[] {
  return curves.flatMap((c) =>
    c.points.map((p) => ({
      x: p.x,
      y: p.y,
      low: p.low,
      high: p.high,
      series: `${c.type} (${thousands(c.queries)} queries)`,
      n: c.queries,
    })),
  );
}

/**
 * One row per type: queries, hit rate at each overlap, the best overlap and the paired rule's recommendation
 * ("undecided: 0, 200 (need ~1,400 queries, 1,300 more)" when the type's queries cannot settle it).
 */
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

/** The caption of `typeRecommendationRows`' table, naming the paired rule's margin (default 0.01, one point). */
export function typeRecommendationCaption(margin = 0.01): string {
  return (
    "Hit rate (%) per type and overlap; recommended = the paired rule on the type's own queries, at a " +
    `${marginText(margin)} margin`
  );
}

/**
 * The index page's headline of the per-type question: the gain only when the paired CI excludes zero and McNemar's
 * exact test agrees, else "no
 * measurable gain" (never a bare difference the data cannot support), with the stated answer as its note.
 */
export function perTypeHeadline(v: PerTypeVsUniform): { value: string; options: { label: string; note: string } } {
  const c = v.comparison;
  const shown = shownOf(c);
  const value =
    shown === "above"
      ? `${signedPointsText(c.diff)} points`
      : shown === "below"
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
): Promise<TypeSweepResult> {
  return runTypeSweep({ docs: inputs.sweepDocs, queries: inputs.queries, types: inputs.types }, spec, {
    workers: 0,
    quiet: true,
  });
}
