import type { Unit } from "../splitters/config";
import { SeamlabError } from "../core/errors";
import { pairedComparison, type PairedComparison } from "../stats/paired";
import { type BootstrapOptions } from "../stats/bootstrap";
import { pickKnee, type KneeOptions } from "./knee";
import { expandGrid, groupBy, type ExperimentConfig, type GridSpec } from "./grid";
import { resolveOverlaps, type OverlapSetting } from "./overlap-share";
import { overlapFamily, runGrid, type CostedRow, type RunGridOptions } from "./run";
import type { GridRow, SweepInputs } from "./rows";
import type { Decision, DecisionOptions } from "../stats/non-inferiority";
import { decideByStorage } from "./verdict";
import type { ParentSetting } from "../retrieval/expand";
import { checkLevers, configCosts, hasLevers, isLeverRow, leverVerdicts, withLevers } from "./sweep-expand";
import {
  checkContextBudget,
  CONTEXT_BUDGET_FLAG,
  defaultContextBudget,
  type ContextBudget,
} from "../retrieval/context-budget";
import { canonicalJson } from "../core/canonical-json";

/** One splitter at one size (or several) over several overlaps, optionally x first-stage depths with a reranker. */
export interface OverlapSweepSpec extends Pick<
  GridSpec,
  "encoding" | "ks" | "finalK" | "rerankerOptions" | "retriever" | "retrieverSettings"
> {
  splitter: string | string[];
  size: number;
  /** One curve per size, and a verdict over size x overlap. */
  sizes?: number[];
  /** Absolute overlaps or shares of each size ({ percent: 10 }). */
  overlaps: OverlapSetting[];
  unit?: Unit;
  reranker?: string;
  /** Judge at this context budget instead of the top k; null: plain hit@k; undefined: see `sweepContextBudget`. */
  contextBudget?: ContextBudget | null;
  /** Levers compared with overlap at an equal budget (sweep-expand). */
  expand?: number[];
  parents?: ParentSetting[];
}

// Comparing sizes by hit@k favours the largest, so a sweep over several sizes is judged at an equal context budget
// unless told otherwise; its plain hit@k rows run too (same split, same index) to show what the budget changes.

/**
 * The sweep's budget, or undefined for plain hit@k. Given: checked. Not given (undefined): with several sizes or
 * levers, one depth and no reranker, `defaultContextBudget` (the median size × k); null: none.
 */
export function sweepContextBudget(spec: OverlapSweepSpec): ContextBudget | undefined {
  const sizes = spec.sizes ?? [spec.size];
  const ks = spec.ks ?? [5];
  const reranked = (spec.reranker ?? "none") !== "none" || (spec.finalK !== undefined && spec.finalK < ks[0]);
  const unit = spec.unit ?? "chars";
  if (spec.contextBudget === null) return undefined;
  if (spec.contextBudget === undefined) {
    return (sizes.length > 1 || hasLevers(spec)) && ks.length === 1 && !reranked
      ? defaultContextBudget(sizes, ks[0], unit)
      : undefined;
  }
  if (ks.length > 1 || reranked)
    throw new SeamlabError(
      `${CONTEXT_BUDGET_FLAG} sets how many chunks reach the prompt, so it takes the place of several --ks, ` +
        `--final-k and --rerank: give one of them, not both.`,
    );
  checkContextBudget(spec.contextBudget, sizes, unit);
  return spec.contextBudget;
}

/** For each row at a budget, the hit rate of the same config at plain hit@k (null when it was not run). */
export function plainHitRates(judged: readonly CostedRow[], all: readonly CostedRow[]): (number | null)[] {
  const plain = new Map<string, number>();
  for (const row of all)
    if (row.config.retrieval.contextBudget === undefined) plain.set(canonicalJson(row.config), row.retrieval.hitRate);
  return judged.map((row) => {
    const { contextBudget: _budget, ...retrieval } = row.config.retrieval;
    return plain.get(canonicalJson({ ...row.config, retrieval })) ?? null;
  });
}

/** The curve's y; with one gold span per query they coincide. */
export type SweepMetric = "recallAtK" | "hitRate";

export type SweepCurve = ReturnType<typeof sweepCurves>[number];

export type DecisionSettings = Pick<DecisionOptions, "margin" | "resamples" | "seed">;

export type SweepResult = Awaited<ReturnType<typeof runOverlapSweep>>;

/** The rows of a curve, in point order. */
export function curveRows(rows: readonly CostedRow[], curve: SweepCurve): CostedRow[] {
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return curve.keys.map((key) => {
    const row = byKey.get(key);
    if (!row) throw new SeamlabError(`curveRows: no row with key ${key}; pass the rows the curve was built from.`);
    return row;
  });
}

/** Every config, each again at the budget if any (same split, one index); a bad budget throws before any work. */
export function sweepConfigs(spec: OverlapSweepSpec): ExperimentConfig[] {
  const configs = (spec.sizes ?? [spec.size]).flatMap((size) =>
    expandGrid({
      splitters: Array.isArray(spec.splitter) ? spec.splitter : [spec.splitter],
      sizes: [size],
      overlaps: resolveOverlaps(spec.overlaps, size),
      units: [spec.unit ?? "chars"],
      encoding: spec.encoding,
      ks: spec.ks ?? [5],
      finalK: spec.finalK,
      rerankers: [spec.reranker ?? "none"],
      rerankerOptions: spec.rerankerOptions,
      retriever: spec.retriever,
      retrieverSettings: spec.retrieverSettings,
    }),
  );
  const budget = sweepContextBudget(spec);
  checkLevers(spec, budget);
  if (budget === undefined) return configs;
  const atBudget = configs.map((config) => ({ ...config, retrieval: { ...config.retrieval, contextBudget: budget } }));
  return withLevers([...configs, ...atBudget], spec);
}

/** One curve per everything-but-overlap, points sorted by overlap. */
export function sweepCurves(
  rows: readonly CostedRow[],
  metric: SweepMetric = "recallAtK",
  kneeOptions: KneeOptions & DecisionSettings = {},
) {
  return [...groupBy<CostedRow>(rows, overlapFamily).values()].map((group) => {
    const sorted = [...group].sort((a, b) => a.config.splitter.overlap - b.config.splitter.overlap);
    const points = sorted.map((row) => {
      const m = row.retrieval;
      const [y, ci] = metric === "hitRate" ? [m.hitRate, m.hitRateCI] : [m.recallAtK, m.recallAtKCI];
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
      ...(r.contextBudget ? { contextBudget: r.contextBudget } : {}), // absent: plain hit@k
      points,
      keys: sorted.map((row) => row.key), // the rows behind the points (see `curveRows`)
      knee: pickKnee(points, kneeOptions),
      // The paired verdict (indexes into `points`), cost = vectors stored: equal index sizes go to the smaller overlap.
      decision: decideByStorage(sorted, kneeOptions),
    };
  });
}

/** Runs the sweep grid (cached, parallel) and picks the knee of each curve. */
export async function runOverlapSweep(
  inputs: SweepInputs,
  spec: OverlapSweepSpec,
  options: RunGridOptions & KneeOptions & DecisionSettings & { metric?: SweepMetric } = {},
) {
  const result = await runGrid(inputs, sweepConfigs(spec), options);
  // The rows at the budget when there is one, else all.
  const budget = sweepContextBudget(spec);
  const atBudget = (row: CostedRow) => budget === undefined || row.config.retrieval.contextBudget !== undefined;
  const judged = result.rows.filter((row) => atBudget(row) && !isLeverRow(row));
  const curves = sweepCurves(judged, options.metric, options);
  const knee = curves[0]?.knee ?? pickKnee([]);
  const levers = leverVerdicts(result.rows, options);
  return { ...result, curves, knee, grids: gridVerdicts(judged, options, result.rows), levers };
}

/** The paired verdict over size x overlap, cost = vectors stored. */
export type GridVerdict = ReturnType<typeof gridVerdicts>[number];

/** What each config better (by hit rate) than `from` costs per point of hit rate above it. */
export function pricesPerPoint(rows: readonly CostedRow[], from: number) {
  const base = rows[from];
  return rows.flatMap((row, index) => {
    const points = 100 * (row.retrieval.hitRate - base.retrieval.hitRate);
    if (index === from || points <= 0) return [];
    const extraVectorBytes = row.cost.storageBytes - base.cost.storageBytes;
    const extraTokens = row.cost.tokensEmbedded - base.cost.tokensEmbedded;
    const extraDollars = row.cost.embeddingCost - base.cost.embeddingCost;
    const price = {
      index,
      points,
      extraVectorBytes,
      extraTokens,
      extraDollars,
      bytesPerPoint: extraVectorBytes / points,
    };
    return [{ ...price, tokensPerPoint: extraTokens / points, dollarsPerPoint: extraDollars / points }];
  });
}

/** The cheapest config of a decision (first of equal costs). */
export function cheapestIndex(decision: Decision): number {
  return decision.configs.reduce((a, b) => (b.cost < a.cost ? b : a)).index;
}

/** Rows grouped by everything but size and overlap, groups spanning several sizes; `allRows` gives plain rates. */
export function gridVerdicts(
  rows: readonly CostedRow[],
  settings: DecisionSettings = {},
  allRows: readonly CostedRow[] = rows,
) {
  const groups = groupBy(rows, (row) => {
    const { overlap: _overlap, size: _size, ...splitter } = row.config.splitter;
    return JSON.stringify([splitter, row.config.retrieval]);
  });
  const spanningSizes = (group: CostedRow[]) => new Set(group.map((row) => row.config.splitter.size)).size >= 2;
  return [...groups.values()].filter(spanningSizes).map((group) => {
    const sorted = [...group].sort(
      (a, b) =>
        a.config.splitter.size - b.config.splitter.size || a.config.splitter.overlap - b.config.splitter.overlap,
    );
    const decision = decideByStorage(sorted, settings);
    const r = sorted[0].config.retrieval;
    // Without a budget, plain hit@k (which favours the largest size); with one, each row's plain rate beside it.
    const budget = r.contextBudget
      ? { contextBudget: r.contextBudget, plainHitRates: plainHitRates(sorted, allRows) }
      : {};
    return {
      splitter: sorted[0].config.splitter.splitter,
      k: r.k,
      finalK: r.finalK ?? r.k,
      reranker: r.reranker ?? "none",
      ...budget,
      rows: sorted, // by size then overlap; the decision's indexes point here
      decision,
      costs: sorted.map(configCosts),
      prices: pricesPerPoint(sorted, cheapestIndex(decision)),
    };
  });
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
    contextBudget: r.contextBudget ? r.contextBudget.amount : null,
    contextBudgetUnit: r.contextBudget ? r.contextBudget.unit : null,
    meanContextChars: m.meanContextChars,
    meanContextTokens: m.meanContextTokens ?? null,
    chunks: row.seams.chunks,
    zeroOverlapPct: row.seams.seams === 0 ? null : row.seams.zeroOverlapPct, // a share of no seams is no number
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
    // A row measured on a document sample says so, with the CIs of what the sample estimates.
    ...(row.sample
      ? {
          sampleDocuments: row.sample.documents,
          sample: row.sample.description,
          pairsKeptLow: row.sample.keptPctCI.low,
          pairsKeptHigh: row.sample.keptPctCI.high,
          tokensEmbeddedLow: row.sample.tokensEmbeddedCI.low,
          tokensEmbeddedHigh: row.sample.tokensEmbeddedCI.high,
        }
      : {}),
  };
}

/** "size 1000, overlap 100 (10%)". */
export function gridConfigName(row: GridRow): string {
  const s = row.config.splitter;
  return `size ${s.size}, overlap ${s.overlap} (${Math.round((100 * s.overlap) / s.size)}%)`;
}

/** Paired comparison of two rows of the same grid (same queries): McNemar p and a bootstrap CI of the difference. */
export function compareRows(a: GridRow, b: GridRow, options: BootstrapOptions = {}): PairedComparison {
  if (a.hits.length !== b.hits.length)
    throw new SeamlabError(
      `compareRows: the rows were run on different query sets (${a.hits.length} and ${b.hits.length} queries).`,
    );
  const hitsOf = (row: GridRow) => Array.from(row.hits, (c) => c === "1");
  return pairedComparison(hitsOf(a), hitsOf(b), options);
}
