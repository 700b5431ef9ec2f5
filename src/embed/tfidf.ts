import type { CsrMatrix } from "./types";
import { lowerTermRuns } from "../text/term-runs";

/** lsa's TF-IDF: 1 + ln tf, idf ln((1 + N) / (1 + df)) + 1 (scikit-learn's smoothed idf), rows of unit L2 length. */
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

/** Lowercased runs of letters and digits: BM25's runs before its stop words and stemming, which lsa never takes. */
function lsaTokens(text: string): string[] {
  return lowerTermRuns(text.toLowerCase());
}

/** Every text's distinct terms (ids into `terms`, first occurrence first) and counts: row i's at rowStart[i]..[i+1]. */
export interface TermCounts {
  rows: number;
  terms: string[];
  rowStart: Int32Array;
  ids: Int32Array;
  counts: Int32Array;
}

export interface TermFrequencies extends Pick<TermCounts, "rows" | "terms"> {
  /** term id -> texts it occurs in */
  df: Int32Array;
  /** (term, text) pairs */
  entries: number;
  /** The per-text counts, when `entries` is at most the cap asked for. */
  counts?: TermCounts;
}

const grown = (array: Int32Array, size: number, fill = 0): Int32Array => {
  const next = new Int32Array(Math.max(size, 2 * array.length)).fill(fill, array.length);
  next.set(array);
  return next;
};

/**
 * Every text's terms, tokenized once, with per-text counts only while they hold at most `cap` (term, text) pairs (8
 * bytes each); past that only document frequencies, all a model needs (a 1 GB corpus: hundreds of millions of pairs).
 */
export function countTermsWithin(texts: readonly string[], cap: number): TermFrequencies {
  const idOf = new Map<string, number>();
  const terms: string[] = [];
  let lastRow = new Int32Array(1024).fill(-1);
  let slot = new Int32Array(1024);
  let df = new Int32Array(1024);
  let ids = new Int32Array(1024);
  let counts = new Int32Array(1024);
  let keeping = true;
  let entries = 0;
  const rowStart = new Int32Array(texts.length + 1);
  texts.forEach((text, row) => {
    for (const token of lsaTokens(text)) {
      let id = idOf.get(token);
      if (id === undefined) {
        id = terms.length;
        idOf.set(token, id);
        terms.push(token);
        if (id === lastRow.length) {
          lastRow = grown(lastRow, id + 1, -1);
          slot = grown(slot, id + 1);
          df = grown(df, id + 1);
        }
      }
      if (lastRow[id] === row) {
        if (keeping) counts[slot[id]]++;
        continue;
      }
      lastRow[id] = row;
      df[id]++;
      if (keeping && entries + 1 > cap) {
        keeping = false;
        ids = counts = new Int32Array(0);
      }
      if (keeping) {
        if (entries === ids.length) {
          ids = grown(ids, entries + 1);
          counts = grown(counts, entries + 1);
        }
        slot[id] = entries;
        ids[entries] = id;
        counts[entries] = 1;
      }
      entries++;
    }
    rowStart[row + 1] = entries;
  });
  const rows = texts.length;
  return {
    rows,
    terms,
    df: df.slice(0, terms.length),
    entries,
    ...(keeping
      ? { counts: { rows, terms, rowStart, ids: ids.slice(0, entries), counts: counts.slice(0, entries) } }
      : {}),
  };
}

/** A fitted model and, for every term id of the counts it was fitted on, its column (-1: not in the vocabulary). */
export interface FittedTfidf {
  model: TfidfModel;
  column: Int32Array;
}

/** The model for texts whose terms occur in `df` texts each. */
export function fitTfidfFrequencies(
  counted: Pick<TermFrequencies, "rows" | "terms" | "df">,
  options: TfidfOptions = {},
): FittedTfidf {
  const { minDocumentFrequency = 2, maxVocabulary = 100_000 } = options;
  const { terms, df } = counted;
  // A corpus too small for the df threshold (a handful of texts) keeps every term rather than none.
  const minDf = counted.rows < 2 * minDocumentFrequency ? 1 : minDocumentFrequency;
  const byTerm = (a: number, b: number) => (terms[a] < terms[b] ? -1 : terms[a] > terms[b] ? 1 : 0);
  const kept: number[] = [];
  for (let id = 0; id < df.length; id++) if (df[id] >= minDf) kept.push(id);
  const ids = kept
    .sort((a, b) => df[b] - df[a] || byTerm(a, b))
    .slice(0, maxVocabulary)
    .sort(byTerm);
  const vocabulary = new Map<string, number>();
  const idf = new Float64Array(ids.length);
  const column = new Int32Array(terms.length).fill(-1);
  ids.forEach((id, at) => {
    vocabulary.set(terms[id], at);
    column[id] = at;
    idf[at] = Math.log((1 + counted.rows) / (1 + df[id])) + 1;
  });
  return { model: { vocabulary, idf }, column };
}

let countScratch = new Int32Array(0);

/** The TF-IDF rows (all, or those listed, in that order) of counted texts under a model (`column` maps their ids). */
export function tfidfCountRows(fitted: FittedTfidf, counted: TermCounts, rows?: readonly number[]): CsrMatrix {
  const { model, column } = fitted;
  const count = rows ? rows.length : counted.rows;
  const rowStart = new Int32Array(count + 1);
  let nonZeros = 0;
  for (let r = 0; r < count; r++) {
    const row = rows ? rows[r] : r;
    for (let p = counted.rowStart[row]; p < counted.rowStart[row + 1]; p++) if (column[counted.ids[p]] >= 0) nonZeros++;
  }
  const colIndex = new Int32Array(nonZeros);
  const values = new Float64Array(nonZeros);
  // Each row writes its columns' counts before reading them, so one scratch array serves every call (a query's row
  // need not allocate and zero one the vocabulary's size).
  if (countScratch.length < model.idf.length) countScratch = new Int32Array(model.idf.length);
  const countOf = countScratch;
  let at = 0;
  for (let r = 0; r < count; r++) {
    const row = rows ? rows[r] : r;
    const from = at;
    for (let p = counted.rowStart[row]; p < counted.rowStart[row + 1]; p++) {
      const c = column[counted.ids[p]];
      if (c < 0) continue;
      colIndex[at++] = c;
      countOf[c] = counted.counts[p];
    }
    colIndex.subarray(from, at).sort();
    let norm = 0;
    for (let i = from; i < at; i++) {
      const v = (1 + Math.log(countOf[colIndex[i]])) * model.idf[colIndex[i]];
      values[i] = v;
      norm += v * v;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = from; i < at; i++) values[i] = values[i] * inv;
    rowStart[r + 1] = at;
  }
  return { rows: count, cols: model.idf.length, rowStart, colIndex, values };
}

/** The TF-IDF rows of `texts` under a fitted model; terms outside the vocabulary are ignored. */
export function tfidfMatrix(model: TfidfModel, texts: string[]): CsrMatrix {
  const rowStart = new Int32Array(texts.length + 1);
  const columns: number[] = [];
  const values: number[] = [];
  texts.forEach((text, row) => {
    const counts = new Map<string, number>();
    for (const token of lsaTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
    const entries: [number, number][] = [];
    for (const [term, count] of counts) {
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
  const colIndex = Int32Array.from(columns);
  return { rows: texts.length, cols: model.idf.length, rowStart, colIndex, values: Float64Array.from(values) };
}
