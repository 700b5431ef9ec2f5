import type { Chunk, Doc } from "../core/types";
import type { Unit } from "../splitters/config";
import { measureLostText } from "./lost";
import { measureSeams, type Seam } from "./seams";
import { measureChunkSizes, type ChunkSizes } from "./sizes";
import { percent } from "../stats/proportion";
import { overlapHistogram, type HistogramBin } from "./overlap-histogram";
import { distributionOf, type Distribution } from "../stats/quantiles";

/** The seam summary of one corpus split with one config (the `seamlab seams` JSON). */
export interface SeamSummary {
  docs: number;
  chars: number;
  chunks: number;
  seams: number;
  unit: Unit;
  nominalOverlap: number;
  zeroOverlapSeams: number;
  zeroOverlapPct: number;
  /** Overlap statistics in characters. */
  meanOverlap: number;
  medianOverlap: number;
  p10Overlap: number;
  p90Overlap: number;
  /** Overlap statistics in tokens (token unit only). */
  meanOverlapTokens?: number;
  medianOverlapTokens?: number;
  /** Mean overlap / nominal overlap, in the config's unit (null when the nominal overlap is 0 or there are no seams). */
  realisedOverlapRatio: number | null;
  /** Histogram of overlaps in the config's unit against the nominal budget. */
  overlapHistogram: HistogramBin[];
  gapSeams: number;
  indexRatio: number;
  /** Chunk lengths in the config's unit. */
  chunkLength: Distribution;
  maxChunkLength: number;
  limit: number;
  chunksOverLimit: number;
  lostChars: number;
  docsWithLostText: number;
}

export interface SplitMeasureOptions {
  nominalOverlap: number;
  unit?: Unit;
  /** Chunk length limit to check, in `unit` (default Infinity: no chunk is over). */
  limit?: number;
  /** Token counter; required when `unit` is "tokens". */
  countTokens?: (text: string) => number;
}

/** Seams + summary of one split corpus: the numbers behind `seamlab seams`. */
export function measureSplit(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  options: SplitMeasureOptions,
): { summary: SeamSummary; seams: Seam[] } {
  const unit = options.unit ?? "chars";
  if (unit === "tokens" && !options.countTokens) throw new Error("measureSplit: token unit needs countTokens");
  const tokenCounter = unit === "tokens" ? options.countTokens : undefined;
  const seams = measureSeams(docs, chunks, { countTokens: tokenCounter });
  const sizes = measureChunkSizes(docs, chunks, { limit: options.limit ?? Infinity, lengthOf: tokenCounter });
  const lost = measureLostText(docs, chunks);
  const columns: SeamColumns = {
    docs: docs.length,
    overlaps: seams.map((seam) => seam.overlap),
    gapSeams: seams.filter((seam) => seam.gap > 0).length,
    lostChars: lost.lostChars,
    docsWithLostText: lost.docsWithLostText,
  };
  if (tokenCounter) columns.overlapTokens = seams.map((seam) => seam.overlapTokens ?? 0);
  return { summary: summariseSeams(columns, sizes, { ...options, unit }), seams };
}

/** The per-seam numbers and totals a seam summary is computed from: one split corpus, or per-doc parts summed. */
export interface SeamColumns {
  docs: number;
  /** Overlap of every seam, in characters. */
  overlaps: number[];
  /** Overlap of every seam in tokens (token unit only). */
  overlapTokens?: number[];
  gapSeams: number;
  lostChars: number;
  docsWithLostText: number;
}

/** The seam summary from its columns and chunk sizes: the one place `SeamSummary` is computed. */
export function summariseSeams(
  columns: SeamColumns,
  sizes: ChunkSizes,
  options: SplitMeasureOptions & { unit: Unit },
): SeamSummary {
  const { overlaps } = columns;
  const chars = distributionOf(overlaps);
  const inUnit = columns.overlapTokens ?? overlaps;
  const tokens = columns.overlapTokens ? distributionOf(columns.overlapTokens) : undefined;
  let zero = 0;
  for (const overlap of overlaps) if (overlap === 0) zero++;
  const meanInUnit = tokens ? tokens.mean : chars.mean;
  const summary: SeamSummary = {
    docs: columns.docs,
    chars: sizes.corpusChars,
    chunks: sizes.lengths.count,
    seams: overlaps.length,
    unit: options.unit,
    nominalOverlap: options.nominalOverlap,
    zeroOverlapSeams: zero,
    zeroOverlapPct: percent(zero, overlaps.length),
    meanOverlap: orZero(chars.mean),
    medianOverlap: orZero(chars.median),
    p10Overlap: orZero(chars.p10),
    p90Overlap: orZero(chars.p90),
    realisedOverlapRatio:
      options.nominalOverlap > 0 && overlaps.length > 0 ? meanInUnit / options.nominalOverlap : null,
    overlapHistogram: overlapHistogram(inUnit, options.nominalOverlap),
    gapSeams: columns.gapSeams,
    indexRatio: sizes.indexRatio,
    chunkLength: sizes.lengths,
    maxChunkLength: sizes.maxChunkLength,
    limit: sizes.limit,
    chunksOverLimit: sizes.chunksOverLimit,
    lostChars: columns.lostChars,
    docsWithLostText: columns.docsWithLostText,
  };
  if (tokens) {
    summary.meanOverlapTokens = orZero(tokens.mean);
    summary.medianOverlapTokens = orZero(tokens.median);
  }
  return summary;
}

// Statistics of zero seams are reported as 0 rather than NaN, so JSON stays valid numbers.
function orZero(value: number): number {
  return Number.isNaN(value) ? 0 : value;
}
