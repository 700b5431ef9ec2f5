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
}

/** A region of a document that must be retrieved; half-open UTF-16 offsets into the doc's text. */
export interface GoldSpan {
  doc: string;
  start: number;
  end: number;
}

/** An evaluation query: the text sent to the retriever and the gold spans that answer it. */
export interface Query {
  id: string;
  text: string;
  gold: GoldSpan[];
}
