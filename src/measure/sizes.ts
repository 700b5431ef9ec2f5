import type { Chunk, Doc } from "../core/types";
import { distributionOf } from "../stats/quantiles";

export type ChunkSizes = ReturnType<typeof chunkSizesOf>;

/** `lengthOf` counts in the unit of `limit` (default: characters). */
export function measureChunkSizes(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  options: { limit: number; lengthOf?: (text: string) => number },
) {
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

/** From lengths already counted (in the unit of `limit`): one split, or gathered document by document. */
export function chunkSizesOf(
  lengths: readonly number[],
  totals: { chunkChars: number; corpusChars: number; limit: number },
) {
  let overLimit = 0;
  for (const length of lengths) if (length > totals.limit) overLimit++;
  const distribution = distributionOf(lengths);
  return {
    /** in the unit of `limit` */
    lengths: distribution,
    maxChunkLength: lengths.length ? distribution.max : 0,
    limit: totals.limit,
    chunksOverLimit: overLimit,
    /** chunk text characters / corpus characters */
    indexRatio: totals.corpusChars === 0 ? 0 : totals.chunkChars / totals.corpusChars,
    corpusChars: totals.corpusChars,
    chunkChars: totals.chunkChars,
  };
}
