import type { Chunk, Doc } from "../core/types";
import type { Bm25Options } from "./bm25-index";

/** A chunk found for a query: `index` points into the chunk array the retriever was built over. */
export type RankedChunk = { index: number; score: number };

/** Anything that ranks chunks for a query text (BM25, dense, hybrid). Ties are broken by lower index. */
export interface Retriever {
  name: string; // the method and its settings, e.g. "bm25(k1=1.2,b=0.75)" or "dense(lsa-256, fitted on this corpus)"
  search(query: string, k: number): RankedChunk[] | Promise<RankedChunk[]>;
  /** The same rankings as `search`, for every query together (dense scans the index once). */
  searchMany?(queries: readonly string[], k: number): Promise<RankedChunk[][]>;
}

/** Settings a retriever factory may read (BM25 these; others their own keys; unknown keys are ignored). */
export type RetrieverSettings = Omit<Bm25Options, "stopWords"> & {
  stopWords?: boolean; // drop `englishStopWords`
  [key: string]: unknown;
};

/**
 * What a retriever is built for, when known: every query it will be asked (it may index less and refuse others) and
 * the documents the chunks are spans of (it may read chunk terms there). Rankings must not change.
 */
export type RetrieverScope = { queries?: readonly string[]; docs?: readonly Doc[] };

/** Builds a retriever over chunks (may be async, e.g. a dense model that loads weights). */
export type RetrieverFactory = (
  chunks: readonly Chunk[],
  settings: RetrieverSettings,
  scope?: RetrieverScope,
) => Retriever | Promise<Retriever>;

/** Second stage: keeps `final_k` of a first-stage retriever's `retrieval_k` candidates. */
export interface Reranker {
  name: string; // the method and its settings, e.g. "mmr(lambda=0.5)"
  /** At most `k` of `candidates` (best first, `index` into `chunks`), best first; ties by first-stage rank. */
  rerank(
    query: string,
    candidates: readonly RankedChunk[],
    chunks: readonly Chunk[],
    k: number,
  ): RankedChunk[] | Promise<RankedChunk[]>;
}
