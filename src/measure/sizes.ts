import type { Chunk, Doc } from "../core/types";
import { distributionOf, type Distribution } from "../stats/quantiles";

export interface ChunkSizes {
  /** Chunk lengths in the measuring unit (chars unless a length function is given). */
  lengths: Distribution;
  maxChunkLength: number;
  /** The limit checked (e.g. the chunk size, or an embedding model's input limit). */
  limit: number;
  chunksOverLimit: number;
  /** Sum of chunk text lengths / corpus characters: how much bigger the index is than the corpus. */
  indexRatio: number;
  corpusChars: number;
  chunkChars: number;
}

export interface ChunkSizeOptions {
  limit: number;
  /** Length of a chunk's text in the unit of `limit` (default: characters). */
  lengthOf?: (text: string) => number;
}

/** Chunk length distribution, chunks over `limit`, and the index size ratio. Linear. */
export function measureChunkSizes(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  options: ChunkSizeOptions,
): ChunkSizes {
  const lengthOf = options.lengthOf ?? ((text: string) => text.length);
  const lengths: number[] = new Array(chunks.length);
  let chunkChars = 0;
  for (let i = 0; i < chunks.length; i++) {
    lengths[i] = lengthOf(chunks[i].text);
    chunkChars += chunks[i].text.length;
  }
  let corpusChars = 0;
  for (const doc of docs) corpusChars += doc.text.length;
  return chunkSizesOf(lengths, { chunkChars, corpusChars, limit: options.limit });
}

/**
 * Chunk sizes from chunk lengths already counted (in the unit of `limit`) and character totals: the one place the
 * distribution, over-limit count and index ratio are computed, whether the lengths come from one split or were
 * gathered document by document.
 */
export function chunkSizesOf(
  lengths: readonly number[],
  totals: { chunkChars: number; corpusChars: number; limit: number },
): ChunkSizes {
  let overLimit = 0;
  for (const length of lengths) if (length > totals.limit) overLimit++;
  const distribution = distributionOf(lengths);
  return {
    lengths: distribution,
    maxChunkLength: lengths.length ? distribution.max : 0,
    limit: totals.limit,
    chunksOverLimit: overLimit,
    indexRatio: totals.corpusChars === 0 ? 0 : totals.chunkChars / totals.corpusChars,
    corpusChars: totals.corpusChars,
    chunkChars: totals.chunkChars,
  };
}
