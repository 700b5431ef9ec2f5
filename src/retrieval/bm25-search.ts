import type { RankedChunk } from "./types";
import { tokenize } from "./tokenize";
import { keepBest } from "./top-k";
import { BLOCK, contribution, frequencyAt, type Bm25Index } from "./bm25-index";

/** Scores every text for the query (0 where no query term occurs). For tests and diagnostics. */
export function scoreAllBm25(index: Bm25Index, query: string): Float64Array {
  const scores = new Float64Array(index.textCount);
  accumulate(index, query, scores, null);
  return scores;
}

/** The query's term ids in query order, repeats kept; a term outside a scoped index's vocabulary throws. */
export function queryTermIds(index: Bm25Index, query: string): number[] {
  const ids: number[] = [];
  for (const term of tokenize(query, index.options)) {
    const t = index.termIds.get(term);
    if (t === undefined) {
      if (index.vocabulary === null) continue;
      throw new Error(`bm25: "${term}" is outside the vocabulary this index was built for; build it for this query.`);
    }
    ids.push(t);
  }
  return ids;
}

/** Adds the query's BM25 terms into `scores`; with `touched`, lists the texts first scored and returns how many. */
function accumulate(index: Bm25Index, query: string, scores: Float64Array, touched: Int32Array | null): number {
  const { postingTextLow, textBlocks, blockStart, postingFrequency, frequencyOverflow, idf, lengthNorm, k1 } = index;
  let count = 0;
  for (const t of queryTermIds(index, query)) {
    const weight = idf[t];
    for (let j = 0; j < textBlocks; j++) {
      const base = j * BLOCK;
      const at = t * (textBlocks + 1) + j;
      for (let p = blockStart[at]; p < blockStart[at + 1]; p++) {
        const text = base + postingTextLow[p];
        const tf = frequencyAt(postingFrequency, frequencyOverflow, p);
        if (touched !== null && scores[text] === 0) touched[count++] = text;
        scores[text] += contribution(weight, tf, k1, lengthNorm[text]);
      }
    }
  }
  return count;
}

/** Reusable buffers for searches over one index, one search at a time: scores and the texts a query touched. */
export type Bm25Scratch = ReturnType<typeof bm25Scratch>;

export function bm25Scratch(index: Bm25Index) {
  return { scores: new Float64Array(index.textCount), touched: new Int32Array(index.textCount) };
}

export function searchBm25Exhaustive(index: Bm25Index, query: string, k: number, scratch?: Bm25Scratch): RankedChunk[] {
  if (k <= 0) return [];
  const { scores, touched } = scratch ?? bm25Scratch(index);
  const count = accumulate(index, query, scores, touched);
  const best: RankedChunk[] = [];
  for (let i = 0; i < count; i++) keepBest(best, k, touched[i], scores[touched[i]]);
  for (let i = 0; i < count; i++) scores[touched[i]] = 0;
  return best;
}
