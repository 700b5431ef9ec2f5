import type { Chunk, Doc } from "../core/types";
import { describeTokenizer } from "./tokenize";
import type { RankedChunk, Retriever } from "./types";
import { queryVocabulary, type Bm25Index, type Bm25Options } from "./bm25-index";
import { sharedBm25Index } from "./bm25-memo";
import { searchBm25Pruned } from "./bm25-pruned";
import { bm25Scratch, queryTermIds, searchBm25Exhaustive, type Bm25Scratch } from "./bm25-search";

/**
 * The k best texts for the query, best first; ties broken by lower index. A query of two or more distinct terms is
 * searched with MaxScore pruning (`searchBm25Pruned`), else every posting is scored (`searchBm25Exhaustive`): the
 * same texts, scores and order either way.
 */
export function searchBm25(index: Bm25Index, query: string, k: number, scratch?: Bm25Scratch): RankedChunk[] {
  if (k <= 0) return [];
  const terms = queryTermIds(index, query);
  if (new Set(terms).size >= 2) return searchBm25Pruned(index, terms, k);
  return searchBm25Exhaustive(index, query, k, scratch);
}

/**
 * A `Retriever` over chunks (or raw texts) with BM25. Given `queries` (every query text it will be asked), the index
 * keeps postings for their terms only (same scores, see `Bm25Scope`), and any other query throws. Given as well the
 * `docs` the chunks are spans of, the chunks' terms are read from those documents, tokenized once for every index
 * built over the same documents array and queries (`buildBm25IndexOfChunks`; same index).
 */
export function createBm25Retriever(
  chunks: readonly (Chunk | string)[],
  options: Bm25Options = {},
  queries?: readonly string[],
  docs?: readonly Doc[],
): Retriever & { index: Bm25Index } {
  const texts = chunks.map((c) => (typeof c === "string" ? c : c.text));
  const vocabulary = queries ? queryVocabulary(queries, options) : undefined;
  const spans = docs && chunks.every((c) => typeof c !== "string") ? (chunks as readonly Chunk[]) : null;
  const index = sharedBm25Index(
    texts,
    options,
    vocabulary ? { vocabulary } : {},
    spans && docs ? { chunks: spans, docs } : undefined,
  );
  const scratch = bm25Scratch(index);
  const idfName = options.idf ?? "lucene";
  return {
    name: `bm25(k1=${index.k1},b=${index.b},idf=${idfName},tokens=${describeTokenizer(options)})`,
    index,
    search: (query: string, k: number) => searchBm25(index, query, k, scratch),
  };
}
