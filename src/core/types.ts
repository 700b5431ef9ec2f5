/** A document of a corpus. `text` is LF-normalised; every offset in seamlab refers to it. */
export interface Doc {
  id: string;
  text: string;
  source?: string;
}

/** `text` is what would be embedded; `[start, end)` (UTF-16 offsets into the doc's text) is the region it covers. */
export interface Chunk {
  doc: string;
  start: number;
  end: number;
  text: string;
}

/** The characters of documents or chunks, summed. */
export const totalChars = (items: readonly { text: string }[]): number =>
  items.reduce((sum, item) => sum + item.text.length, 0);

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
  /** the document the query was made from, when it has one (ICT, headers, generated); results group by it */
  doc?: string;
}
