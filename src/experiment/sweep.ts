import type { Unit } from "../splitters/config";
import { SeamlabError } from "../core/errors";
import { pairedComparison, type PairedComparison } from "../stats/paired";
import { type BootstrapOptions } from "../stats/bootstrap";
import { type Interval } from "../stats/types";
import { pickKnee, type CurvePoint, type KneeOptions, type KneeReport } from "./knee";
import type { GridSpec } from "./grid";
import { runGrid, type CostedRow, type GridResult, type RunGridOptions } from "./run";
import type { GridRow, SweepInputs } from "./rows";

/**
 * The overlap sweep: one splitter at one size over several overlaps (optionally x first-stage depths with
 * a reranker cutting to final_k), a recall-vs-overlap curve per depth, and the knee of each curve.
 */
export interface OverlapSweepSpec {
  /** One splitter, or several swept side by side (one curve each). */
  splitter: string | string[];
  size: number;
  overlaps: number[];
  unit?: Unit;
  encoding?: string;
  /** First-stage depths (retrieval_k). Default [5]. */
  ks?: number[];
  /** Cut to this many after reranking; metrics are @finalK. Default: no cut. */
  finalK?: number;
  /** Default "none". */
  reranker?: string;
  rerankerOptions?: Record<string, unknown>;
  retriever?: string;
  retrieverSettings?: Record<string, unknown>;
}

/** Which number is the curve's y. Both are proportions over queries; with one gold span per query they coincide. */
export type SweepMetric = "recallAtK" | "hitRate";

export interface SweepPoint extends CurvePoint {
  overlap: number;
  chunks: number;
  tokensRatio: number | null;
  storageRatio: number | null;
}

export interface SweepCurve {
  splitter: string;
  size: number;
  unit: Unit;
  k: number;
  finalK: number;
  reranker: string;
  metric: SweepMetric;
  points: SweepPoint[];
  knee: KneeReport;
}

export interface SweepResult extends Omit<GridResult, "rows"> {
  rows: CostedRow[];
  curves: SweepCurve[];
  /** The knee of the first curve (the only one unless several ks were swept). */
  knee: KneeReport;
}

export function sweepGrid(spec: OverlapSweepSpec): GridSpec {
  return {
    splitters: Array.isArray(spec.splitter) ? spec.splitter : [spec.splitter],
    sizes: [spec.size],
    overlaps: spec.overlaps,
    units: [spec.unit ?? "chars"],
    encoding: spec.encoding,
    ks: spec.ks ?? [5],
    finalK: spec.finalK,
    rerankers: [spec.reranker ?? "none"],
    rerankerOptions: spec.rerankerOptions,
    retriever: spec.retriever,
    retrieverSettings: spec.retrieverSettings,
  };
}

function metricOf(row: CostedRow, metric: SweepMetric): { y: number; ci: Interval } {
  const r = row.retrieval;
  return metric === "hitRate" ? { y: r.hitRate, ci: r.hitRateCI } : { y: r.recallAtK, ci: r.recallAtKCI };
}

/**
 * Curves (one per first-stage depth and reranker) from grid rows that vary the overlap; rows of other
 * splitters or sizes are kept apart too. Points are sorted by overlap.
 */
export function sweepCurves(
  rows: readonly CostedRow[],
  metric: SweepMetric = "recallAtK",
  kneeOptions: KneeOptions = {},
): SweepCurve[] {
  const groups = new Map<string, CostedRow[]>();
  for (const row of rows) {
    const { overlap: _overlap, ...splitter } = row.config.splitter;
    const id = JSON.stringify([splitter, row.config.retrieval]);
    if (!groups.has(id)) groups.set(id, []);
    (groups.get(id) as CostedRow[]).push(row);
  }
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort((a, b) => a.config.splitter.overlap - b.config.splitter.overlap);
    const points: SweepPoint[] = sorted.map((row) => {
      const { y, ci } = metricOf(row, metric);
      return {
        x: row.config.splitter.overlap,
        y,
        low: ci.low,
        high: ci.high,
        overlap: row.config.splitter.overlap,
        chunks: row.seams.chunks,
        tokensRatio: row.cost.tokensRatio,
        storageRatio: row.cost.storageRatio,
      };
    });
    const r = sorted[0].config.retrieval;
    const s = sorted[0].config.splitter;
    return {
      splitter: s.splitter,
      size: s.size,
      unit: s.unit ?? "chars",
      k: r.k,
      finalK: r.finalK ?? r.k,
      reranker: r.reranker ?? "none",
      metric,
      points,
      knee: pickKnee(points, kneeOptions),
    };
  });
}

/** Runs the sweep grid (cached, parallel) and picks the knee of each curve. */
export async function runOverlapSweep(
  inputs: SweepInputs,
  spec: OverlapSweepSpec,
  options: RunGridOptions & KneeOptions & { metric?: SweepMetric } = {},
): Promise<SweepResult> {
  const result = await runGrid(inputs, sweepGrid(spec), options);
  const curves = sweepCurves(result.rows, options.metric, options);
  const knee = curves[0]?.knee ?? pickKnee([]);
  return { ...result, curves, knee };
}

/** One flat record per row, for tables, CSV and the CLI's JSON. */
export function flattenRow(row: CostedRow): Record<string, string | number | null> {
  const s = row.config.splitter;
  const r = row.config.retrieval;
  const m = row.retrieval;
  return {
    splitter: s.splitter,
    size: s.size,
    overlap: s.overlap,
    unit: s.unit ?? "chars",
    k: r.k,
    finalK: r.finalK ?? r.k,
    reranker: r.reranker ?? "none",
    chunks: row.seams.chunks,
    zeroOverlapPct: row.seams.zeroOverlapPct,
    meanOverlap: row.seams.meanOverlap,
    medianOverlap: row.seams.medianOverlap,
    indexRatio: row.seams.indexRatio,
    pairsKeptPct: row.damage.keptPct,
    queries: m.queries,
    hitRate: m.hitRate,
    hitRateLow: m.hitRateCI.low,
    hitRateHigh: m.hitRateCI.high,
    recall: m.recallAtK,
    recallLow: m.recallAtKCI.low,
    recallHigh: m.recallAtKCI.high,
    meanDistinct: m.meanDistinct,
    overlappingTopKPct: 100 * m.queriesWithOverlappingTopK,
    nearDuplicateRatio: m.nearDuplicateRatio,
    iou: m.iou,
    tokensEmbedded: row.tokensEmbedded,
    tokensRatio: row.cost.tokensRatio,
    embeddingCost: row.cost.embeddingCost,
    storageBytes: row.cost.storageBytes,
    storageRatio: row.cost.storageRatio,
  };
}

/**
 * Paired comparison of two rows of the same grid (same queries): wins/losses per query, exact McNemar p and
 * a bootstrap CI of the hit-rate difference. "Is overlap 200 really better than 0 here?" in one call.
 */
export function compareRows(a: GridRow, b: GridRow, options: BootstrapOptions = {}): PairedComparison {
  if (a.hits.length !== b.hits.length) {
    throw new SeamlabError(
      `compareRows: the rows were run on different query sets (${a.hits.length} and ${b.hits.length} queries).`,
    );
  }
  const hitsOf = (row: GridRow) => Array.from(row.hits, (c) => c === "1");
  return pairedComparison(hitsOf(a), hitsOf(b), options);
}
