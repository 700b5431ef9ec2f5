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
  let overLimit = 0;
  for (let i = 0; i < chunks.length; i++) {
    const length = lengthOf(chunks[i].text);
    lengths[i] = length;
    if (length > options.limit) overLimit++;
    chunkChars += chunks[i].text.length;
  }
  let corpusChars = 0;
  for (const doc of docs) corpusChars += doc.text.length;
  const distribution = distributionOf(lengths);
  return {
    lengths: distribution,
    maxChunkLength: chunks.length ? distribution.max : 0,
    limit: options.limit,
    chunksOverLimit: overLimit,
    indexRatio: corpusChars === 0 ? 0 : chunkChars / corpusChars,
    corpusChars,
    chunkChars,
  };
}
