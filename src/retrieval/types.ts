import type { Chunk, Doc } from "../core/types";

/** A chunk found for a query: `index` points into the chunk array the retriever was built over. */
export interface RankedChunk {
  index: number;
  score: number;
}

/** Anything that ranks chunks for a query text (BM25, dense, hybrid). Ties are broken by lower index. */
export interface Retriever {
  /** Names the method and its settings, e.g. "bm25(k1=1.2,b=0.75)" or "dense(lsa-256, fitted on this corpus)". */
  name: string;
  search(query: string, k: number): RankedChunk[] | Promise<RankedChunk[]>;
  /** Optional: the same rankings as `search` for every query, computed together (dense scans the index once). */
  searchMany?(queries: readonly string[], k: number): Promise<RankedChunk[][]>;
}

/**
 * Settings a retriever factory may read. BM25 reads k1, b, idf, stem, stopWords; other retrievers read
 * their own keys (unknown keys are ignored).
 */
export interface RetrieverSettings {
  k1?: number;
  b?: number;
  idf?: "lucene" | "robertson";
  stem?: boolean;
  /** drop `englishStopWords` */
  stopWords?: boolean;
  [key: string]: unknown;
}

/**
 * What a retriever is built to answer, when known in advance: `queries`, every query text it will be asked. A
 * retriever may use it to index less (BM25 keeps postings for those queries' terms only) and may refuse any other
 * query; rankings of these queries must be exactly those of a retriever built without it.
 */
export interface RetrieverScope {
  queries?: readonly string[];
  /**
   * The documents the chunks are spans of (`chunk.doc` ids). A retriever may read chunk terms from them (BM25 does,
   * tokenizing the documents once for every config of a sweep); results must not change.
   */
  docs?: readonly Doc[];
}

/** Builds a retriever over chunks (may be async, e.g. a dense model that loads weights). */
export type RetrieverFactory = (
  chunks: readonly Chunk[],
  settings: RetrieverSettings,
  scope?: RetrieverScope,
) => Retriever | Promise<Retriever>;

/**
 * Second-stage reranking: a first-stage retriever returns `retrieval_k` candidates, a reranker keeps
 * `final_k` of them. The joint sweep (overlap x first-stage depth) needs this seam so that a dense
 * cross-encoder-like reranker can be added later without touching the sweep code.
 */
export interface Reranker {
  /** Names the method and its settings, e.g. "mmr(lambda=0.5,jaccard)". */
  name: string;
  /**
   * Picks at most `k` of `candidates` (ranked best first by the first stage; `index` points into
   * `chunks`) and returns them best first. Must be deterministic: break ties by first-stage rank.
   */
  rerank(
    query: string,
    candidates: readonly RankedChunk[],
    chunks: readonly Chunk[],
    k: number,
  ): RankedChunk[] | Promise<RankedChunk[]>;
}

/** A Reranker whose `rerank` always returns a promise (the dense reranker). */
export type AsyncReranker = Omit<Reranker, "rerank"> & {
  rerank(
    query: string,
    candidates: readonly RankedChunk[],
    chunks: readonly Chunk[],
    k: number,
  ): Promise<RankedChunk[]>;
};
