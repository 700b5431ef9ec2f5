import { totalChars, type Chunk, type Doc } from "../core/types";
import { distributionOf } from "../stats/quantiles";

export type ChunkSizes = ReturnType<typeof chunkSizesOf>;

/** `lengthOf` counts in the unit of `limit` (default: characters). */
export function measureChunkSizes(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  options: { limit: number; lengthOf?: (text: string) => number },
) {
  const lengthOf = options.lengthOf ?? ((text: string) => text.length);
  const chunkChars = totalChars(chunks);
  const corpusChars = totalChars(docs);
  const lengths = chunks.map((chunk) => lengthOf(chunk.text));
  return chunkSizesOf(lengths, { chunkChars, corpusChars, limit: options.limit });
}

/** From lengths already counted (in the unit of `limit`): one split, or gathered document by document. */
export function chunkSizesOf(
  lengths: readonly number[],
  totals: { chunkChars: number; corpusChars: number; limit: number },
) {
  const distribution = distributionOf(lengths);
  return {
    /** in the unit of `limit` */
    lengths: distribution,
    maxChunkLength: lengths.length ? distribution.max : 0,
    limit: totals.limit,
    chunksOverLimit: lengths.filter((length) => length > totals.limit).length,
    /** chunk text characters / corpus characters */
    indexRatio: totals.corpusChars === 0 ? 0 : totals.chunkChars / totals.corpusChars,
    corpusChars: totals.corpusChars,
    chunkChars: totals.chunkChars,
  };
}
