import type { Chunk, Doc } from "../core/types";
import { describeTokenizer } from "./tokenize";
import type { RankedChunk, Retriever } from "./types";
import { queryVocabulary, type Bm25Index, type Bm25Options } from "./bm25-index";
import { sharedBm25Index } from "./bm25-memo";
import { searchBm25Pruned } from "./bm25-pruned";
import { bm25Scratch, queryTermIds, searchBm25Exhaustive, type Bm25Scratch } from "./bm25-search";

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
