import type { RankedChunk } from "./types";
import { tokenize } from "./tokenize";
import { BLOCK, contribution, frequencyAt, type Bm25Index } from "./bm25-index";

// Exhaustive BM25 search: every posting of the query's terms scored, term by term; and the pieces every search
// shares (the query's term ids, the k-best order).

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

/**
 * Adds the query's BM25 terms into `scores`; with `touched`, also lists each text that got its first score there
 * and returns how many (0 without it).
 */
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

/** Orders by score descending, then text index ascending. */
function ranksBefore(scoreA: number, indexA: number, scoreB: number, indexB: number): boolean {
  return scoreA > scoreB || (scoreA === scoreB && indexA < indexB);
}

/** Puts the text into the sorted k best if it ranks there (the array holds at most k). */
export function keepBest(best: RankedChunk[], k: number, text: number, score: number): void {
  if (best.length === k && !ranksBefore(score, text, best[k - 1].score, best[k - 1].index)) return;
  let at = best.length === k ? k - 1 : best.length;
  if (best.length < k) best.push({ index: text, score });
  while (at > 0 && ranksBefore(score, text, best[at - 1].score, best[at - 1].index)) {
    best[at] = best[at - 1];
    at--;
  }
  best[at] = { index: text, score };
}

/** Reusable buffers for `searchBm25` over one index: scores and the list of texts a query touched. */
export interface Bm25Scratch {
  scores: Float64Array;
  touched: Int32Array;
}

/** Buffers sized for `index`, for many searches in a row (one search at a time). */
export function bm25Scratch(index: Bm25Index): Bm25Scratch {
  return { scores: new Float64Array(index.textCount), touched: new Int32Array(index.textCount) };
}

/** `searchBm25` scoring every posting of the query's terms, term by term. */
export function searchBm25Exhaustive(index: Bm25Index, query: string, k: number, scratch?: Bm25Scratch): RankedChunk[] {
  if (k <= 0) return [];
  const { scores, touched } = scratch ?? bm25Scratch(index);
  const count = accumulate(index, query, scores, touched);
  // Keep the k best in a small sorted array: k is tiny (5-20) next to the touched count.
  const best: RankedChunk[] = [];
  for (let i = 0; i < count; i++) keepBest(best, k, touched[i], scores[touched[i]]);
  for (let i = 0; i < count; i++) scores[touched[i]] = 0;
  return best;
}
