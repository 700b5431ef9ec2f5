import type { Chunk, Doc } from "../core/types";
import { describeTokenizer, tokenize } from "./tokenize";
import type { RankedChunk, Retriever } from "./types";
import { BLOCK, contribution, frequencyAt, queryVocabulary, type Bm25Index, type Bm25Options } from "./bm25-index";
import { sharedBm25Index } from "./bm25-memo";
import { searchBm25Pruned } from "./bm25-pruned";
import { keepBest } from "./top-k";

/** Scores every text for the query (0 where no query term occurs). For tests and diagnostics. */
export function scoreAllBm25(index: Bm25Index, query: string): Float64Array {
  const scores = new Float64Array(index.textCount);
  accumulate(index, query, scores, null);
  return scores;
}

/** The query's term ids in query order, repeats kept; a term outside a scoped index's vocabulary throws. */
function queryTermIds(index: Bm25Index, query: string): number[] {
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
type Bm25Scratch = ReturnType<typeof bm25Scratch>;

function bm25Scratch(index: Bm25Index) {
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

/** The k best texts for the query, best first, ties to the lower index; pruned from two distinct terms up. */
export function searchBm25(index: Bm25Index, query: string, k: number, scratch?: Bm25Scratch): RankedChunk[] {
  if (k <= 0) return [];
  const terms = queryTermIds(index, query);
  if (new Set(terms).size >= 2) return searchBm25Pruned(index, terms, k);
  return searchBm25Exhaustive(index, query, k, scratch);
}

/**
 * A BM25 `Retriever` over chunks (or raw texts). Given `queries`, the index holds their terms only (`Bm25Scope`) and
 * refuses others; given also the `docs` the chunks are spans of, chunk terms are read from them (same index).
 */
export function createBm25Retriever(
  chunks: readonly (Chunk | string)[],
  options: Bm25Options = {},
  queries?: readonly string[],
  docs?: readonly Doc[],
): Retriever & { index: Bm25Index } {
  const texts = chunks.map((c) => (typeof c === "string" ? c : c.text));
  const vocabulary = queries ? queryVocabulary(queries, options) : undefined;
  const spans = docs && chunks.every((c) => typeof c !== "string") ? { chunks: chunks as Chunk[], docs } : undefined;
  const index = sharedBm25Index(texts, options, vocabulary ? { vocabulary } : {}, spans);
  const scratch = bm25Scratch(index);
  return {
    name: `bm25(k1=${index.k1},b=${index.b},idf=${options.idf ?? "lucene"},tokens=${describeTokenizer(options)})`,
    index,
    search: (query: string, k: number) => searchBm25(index, query, k, scratch),
  };
}
