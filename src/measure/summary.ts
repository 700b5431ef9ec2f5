import type { Chunk, Doc } from "../core/types";
import type { Unit } from "../splitters/config";
import { measureLostText } from "./lost";
import { measureSeams, type Seam } from "./seams";
import { measureChunkSizes, type ChunkSizes } from "./sizes";
import { percent } from "../stats/proportion";
import { overlapHistogram } from "./overlap-histogram";
import { distributionOf } from "../stats/quantiles";

/** The seam summary of one corpus split with one config (the `seamlab seams` JSON). */
export type SeamSummary = ReturnType<typeof summariseSeams>;

export function measureSplit(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  options: { nominalOverlap: number; unit?: Unit; limit?: number; countTokens?: (text: string) => number },
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
    ...(tokenCounter ? { overlapTokens: seams.map((seam) => seam.overlapTokens ?? 0) } : {}),
  };
  return { summary: summariseSeams(columns, sizes, options.nominalOverlap, unit), seams };
}

/** What a seam summary is computed from: one split corpus, or per-doc parts summed. */
export interface SeamColumns {
  docs: number;
  /** per seam, in characters (and tokens, token unit only) */
  overlaps: number[];
  overlapTokens?: number[];
  gapSeams: number;
  lostChars: number;
  docsWithLostText: number;
}

export function summariseSeams(columns: SeamColumns, sizes: ChunkSizes, nominalOverlap: number, unit: Unit) {
  const { overlaps } = columns;
  const chars = distributionOf(overlaps);
  const inUnit = columns.overlapTokens ?? overlaps;
  const tokens = columns.overlapTokens ? distributionOf(columns.overlapTokens) : undefined;
  const zero = overlaps.filter((overlap) => overlap === 0).length;
  const meanInUnit = tokens ? tokens.mean : chars.mean;
  return {
    docs: columns.docs,
    chars: sizes.corpusChars,
    chunks: sizes.lengths.count,
    seams: overlaps.length,
    unit,
    nominalOverlap,
    zeroOverlapSeams: zero,
    zeroOverlapPct: percent(zero, overlaps.length),
    meanOverlap: orZero(chars.mean),
    medianOverlap: orZero(chars.median),
    p10Overlap: orZero(chars.p10),
    p90Overlap: orZero(chars.p90),
    /** mean / nominal overlap in the config's unit; null when nominal is 0 or there are no seams */
    realisedOverlapRatio: nominalOverlap > 0 && overlaps.length > 0 ? meanInUnit / nominalOverlap : null,
    overlapHistogram: overlapHistogram(inUnit, nominalOverlap),
    gapSeams: columns.gapSeams,
    indexRatio: sizes.indexRatio,
    chunkLength: sizes.lengths,
    maxChunkLength: sizes.maxChunkLength,
    limit: sizes.limit,
    chunksOverLimit: sizes.chunksOverLimit,
    lostChars: columns.lostChars,
    docsWithLostText: columns.docsWithLostText,
    ...(tokens ? { meanOverlapTokens: orZero(tokens.mean), medianOverlapTokens: orZero(tokens.median) } : {}),
  };
}

// statistics of zero seams are 0, not NaN, so JSON stays valid numbers
function orZero(value: number): number {
  return Number.isNaN(value) ? 0 : value;
}
