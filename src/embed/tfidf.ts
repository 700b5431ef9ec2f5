import { CsrMatrix } from "./sparse";

/**
 * TF-IDF weighting for the `lsa` embedder: sublinear term frequency (1 + ln tf), smoothed idf
 * (ln((1 + N) / (1 + df)) + 1, as scikit-learn's TfidfVectorizer), rows scaled to unit L2 length.
 */
export interface TfidfModel {
  /** term → column */
  vocabulary: Map<string, number>;
  /** idf per column */
  idf: Float64Array;
}

export interface TfidfOptions {
  /** Keep terms that occur in at least this many texts (default 2: a term in one text links it to nothing). */
  minDocumentFrequency?: number;
  /** Keep at most this many terms, the most frequent by document frequency (ties: alphabetical). */
  maxVocabulary?: number;
}

/**
 * Lowercased runs of Unicode letters and digits. Kept here (rather than shared with BM25) so the embedder's
 * identity cannot change when another tokenizer is tuned.
 */
export function lsaTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of lsaTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

export function fitTfidf(texts: string[], options: TfidfOptions = {}): TfidfModel {
  const { minDocumentFrequency = 2, maxVocabulary = 100_000 } = options;
  const df = new Map<string, number>();
  for (const text of texts) for (const term of termCounts(text).keys()) df.set(term, (df.get(term) ?? 0) + 1);
  // A corpus too small for the df threshold (a handful of texts) keeps every term rather than none.
  const minDf = texts.length < 2 * minDocumentFrequency ? 1 : minDocumentFrequency;
  const terms = [...df.entries()]
    .filter(([, count]) => count >= minDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, maxVocabulary)
    .map(([term]) => term)
    .sort();
  const vocabulary = new Map<string, number>();
  const idf = new Float64Array(terms.length);
  terms.forEach((term, column) => {
    vocabulary.set(term, column);
    idf[column] = Math.log((1 + texts.length) / (1 + (df.get(term) ?? 0))) + 1;
  });
  return { vocabulary, idf };
}

/** The TF-IDF rows of `texts` under a fitted model; terms outside the vocabulary are ignored. */
export function tfidfMatrix(model: TfidfModel, texts: string[]): CsrMatrix {
  const rowStart = new Int32Array(texts.length + 1);
  const columns: number[] = [];
  const values: number[] = [];
  texts.forEach((text, row) => {
    const entries: [number, number][] = [];
    for (const [term, count] of termCounts(text)) {
      const column = model.vocabulary.get(term);
      if (column !== undefined) entries.push([column, (1 + Math.log(count)) * model.idf[column]]);
    }
    entries.sort((a, b) => a[0] - b[0]);
    let norm = 0;
    for (const [, v] of entries) norm += v * v;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (const [column, v] of entries) {
      columns.push(column);
      values.push(v * inv);
    }
    rowStart[row + 1] = columns.length;
  });
  return {
    rows: texts.length,
    cols: model.idf.length,
    rowStart,
    colIndex: Int32Array.from(columns),
    values: Float64Array.from(values),
  };
}
