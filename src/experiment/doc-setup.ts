import type { Doc, Query } from "../core/types";
import { straddlingPairs, type StraddlingPair } from "../measure/pairs";
import { queryVocabulary } from "../retrieval/bm25-index";
import {
  buildDocTermTable,
  DOC_TERMS_CAP,
  docTermTableOf,
  rememberDocTermTable,
  vocabularyTermIds,
  type DocTerms,
} from "../retrieval/doc-terms";
import type { ExperimentConfig } from "./grid";
import { documentPieces, type DocPieces } from "./token-count";

// What every config of a sweep needs of the documents alone, whatever the splitter: the sentence pairs straddling
// paragraph breaks (seam damage) and each document's token pieces (embedded tokens). A worker thread used to build
// both for the whole corpus before its first row, so with two threads the corpus was read twice over (about a
// second of CPU each on opentelemetry-docs). Instead each thread builds them for a share of the documents, the
// shares are merged into SharedArrayBuffers, and every thread reads the merged arrays without copying them. BM25's
// table of the documents' terms (retrieval/doc-terms) is shared the same way when the grid uses BM25 with its default
// tokenizer (no stemming, no stop words), the only settings the setup builds it for.

/** The encoding of the pieces: the one rows count embedded tokens in (rows.ts). */
export const SETUP_ENCODING = "cl100k_base";

/** The setup of the documents [from, to) of a corpus, as plain typed arrays (they cross a thread boundary). */
export interface DocSetupPart {
  from: number;
  to: number;
  /** Straddling pairs as (document index, start, end) triples, in corpus order. */
  pairs: Int32Array;
  /** Pieces of each document of the range. */
  pieceCounts: Int32Array;
  /** End offset of every piece, document after document. */
  ends: Int32Array;
  /** Running token totals, document after document: pieceCounts[i] + 1 entries each, starting at 0. */
  cumulative: Float64Array;
  /** BM25's document terms of the range, when asked for (see `TermRows`). */
  terms?: TermRows;
}

/**
 * Rows of a BM25 document-term table (retrieval/doc-terms), document after document: `runs[i]` codes and
 * `anchorCounts[i]` anchors for document i of the range, or runs[i] = -1 where the table keeps no row.
 */
export interface TermRows {
  runs: Int32Array;
  anchorCounts: Int32Array;
  codes: Uint16Array | Int32Array;
  anchors: Int32Array;
}

/** The setup of a whole corpus, in SharedArrayBuffers. */
export interface DocSetup {
  docCount: number;
  /** Straddling pairs as (document index, start, end) triples, in corpus order. */
  pairs: Int32Array;
  /** Document i's piece ends are ends[pieceStart[i] .. pieceStart[i + 1]); its totals start at cumulative[pieceStart[i] + i]. */
  pieceStart: Int32Array;
  ends: Int32Array;
  cumulative: Float64Array;
  /** The whole corpus's BM25 document terms, when the parts had them. */
  terms?: TermRows;
}

/** Whether some config ranks with BM25 and its default tokenizer (no stemming, no stop words). */
export function usesDefaultBm25(configs: readonly ExperimentConfig[]): boolean {
  return configs.some((config) => {
    const r = config.retrieval;
    const settings = r.retrieverSettings ?? {};
    return (r.retriever ?? "bm25") === "bm25" && !settings.stem && !settings.stopWords;
  });
}

/** The query terms BM25's default tokenizer finds: the vocabulary the setup's document-term table is built for. */
function defaultVocabulary(queries: readonly Query[]): Set<string> {
  return queryVocabulary(queries.map((query) => query.text));
}

/**
 * Whether the setup can hold BM25's document terms: the grid asks for them (`wanted`), and the corpus is small
 * enough that the table, built whole, would keep every document it can (`DOC_TERMS_CAP` runs, each at least one
 * character), so that the rows built apart are the rows a single build keeps.
 */
export function setupTermsFit(docs: readonly Doc[], wanted: boolean): boolean {
  return wanted && docs.reduce((sum, doc) => sum + doc.text.length, 0) <= DOC_TERMS_CAP;
}

function termRowsOf(range: readonly Doc[], queries: readonly Query[]): TermRows {
  const table = buildDocTermTable(range, vocabularyTermIds(defaultVocabulary(queries)));
  const runs = new Int32Array(range.length).fill(-1);
  const anchorCounts = new Int32Array(range.length);
  const rows: DocTerms[] = [];
  const seen = new Set<DocTerms>();
  range.forEach((doc, i) => {
    const row = table.docs.get(doc.id);
    // A repeated id: the table kept one of them (the first that qualifies), by its text.
    if (row === undefined || row.text !== doc.text || seen.has(row)) return;
    seen.add(row);
    rows.push(row);
    runs[i] = row.codes.length;
    anchorCounts[i] = row.anchors.length;
  });
  const wide = rows.some((row) => row.codes instanceof Int32Array);
  const total = rows.reduce((sum, row) => sum + row.codes.length, 0);
  const codes = wide ? new Int32Array(total) : new Uint16Array(total);
  const anchors = new Int32Array(rows.reduce((sum, row) => sum + row.anchors.length, 0));
  let at = 0;
  let anchorAt = 0;
  for (const row of rows) {
    codes.set(row.codes, at);
    anchors.set(row.anchors, anchorAt);
    at += row.codes.length;
    anchorAt += row.anchors.length;
  }
  return { runs, anchorCounts, codes, anchors };
}

/** Pairs and token pieces of the documents [from, to), and BM25's document terms for `queries` when given. */
export function computeDocSetupPart(
  docs: readonly Doc[],
  from: number,
  to: number,
  queries?: readonly Query[],
): DocSetupPart {
  const range = docs.slice(from, to);
  const position = new Map(range.map((doc, i) => [doc.id, from + i]));
  const found = straddlingPairs(range);
  const pairs = new Int32Array(3 * found.length);
  found.forEach((pair, i) => {
    pairs[3 * i] = position.get(pair.doc) as number;
    pairs[3 * i + 1] = pair.start;
    pairs[3 * i + 2] = pair.end;
  });
  const pieces = range.map((doc) => documentPieces(doc.text, SETUP_ENCODING));
  const total = pieces.reduce((sum, p) => sum + p.ends.length, 0);
  const ends = new Int32Array(total);
  const cumulative = new Float64Array(total + range.length);
  const pieceCounts = new Int32Array(range.length);
  let at = 0;
  pieces.forEach((p, i) => {
    pieceCounts[i] = p.ends.length;
    ends.set(p.ends, at);
    cumulative.set(p.cumulative, at + i);
    at += p.ends.length;
  });
  return { from, to, pairs, pieceCounts, ends, cumulative, ...(queries ? { terms: termRowsOf(range, queries) } : {}) };
}

/**
 * Document ranges for `parts` threads, cut where the characters before reach each share: token pieces and pairs
 * cost about the same per character.
 */
export function setupRanges(docs: readonly Doc[], parts: number): [number, number][] {
  const total = docs.reduce((sum, doc) => sum + doc.text.length, 0);
  const ranges: [number, number][] = [];
  let from = 0;
  let chars = 0;
  for (let part = 1; part <= parts && from < docs.length; part++) {
    let to = from;
    if (part === parts) to = docs.length;
    else {
      while (to < docs.length && chars + docs[to].text.length <= (total * part) / parts)
        chars += docs[to++].text.length;
      if (to === from) chars += docs[to++].text.length; // every range holds a document
    }
    ranges.push([from, to]);
    from = to;
  }
  return ranges;
}

function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Math.max(1, length) * 4), 0, length);
}

/** The parts (covering the documents in order, each once) merged into shared arrays. */
export function mergeDocSetup(parts: readonly DocSetupPart[], docCount: number): DocSetup {
  const sorted = [...parts].sort((a, b) => a.from - b.from);
  let next = 0;
  for (const part of sorted) {
    if (part.from !== next) throw new Error(`doc setup: parts leave documents ${next}..${part.from} out`);
    next = part.to;
  }
  if (next !== docCount) throw new Error(`doc setup: parts end at document ${next} of ${docCount}`);
  const pairCount = sorted.reduce((sum, p) => sum + p.pairs.length, 0);
  const pieceCount = sorted.reduce((sum, p) => sum + p.ends.length, 0);
  const pairs = sharedInt32(pairCount);
  const pieceStart = sharedInt32(docCount + 1);
  const ends = sharedInt32(pieceCount);
  const cumulative = new Float64Array(
    new SharedArrayBuffer(Math.max(1, pieceCount + docCount) * 8),
    0,
    pieceCount + docCount,
  );
  let pairAt = 0;
  let pieceAt = 0;
  for (const part of sorted) {
    pairs.set(part.pairs, pairAt);
    pairAt += part.pairs.length;
    ends.set(part.ends, pieceAt);
    cumulative.set(part.cumulative, pieceAt + part.from);
    for (let i = 0; i < part.pieceCounts.length; i++) {
      pieceStart[part.from + i] = pieceAt;
      pieceAt += part.pieceCounts[i];
    }
  }
  pieceStart[docCount] = pieceAt;
  const terms = sorted.every((part) => part.terms !== undefined)
    ? mergeTermRows(sorted.map((part) => part.terms as TermRows))
    : undefined;
  return { docCount, pairs, pieceStart, ends, cumulative, ...(terms ? { terms } : {}) };
}

function mergeTermRows(parts: readonly TermRows[]): TermRows {
  const concat = <T extends Int32Array | Uint16Array>(
    arrays: T[],
    make: (buffer: SharedArrayBuffer, n: number) => T,
  ) => {
    const n = arrays.reduce((sum, a) => sum + a.length, 0);
    const out = make(new SharedArrayBuffer(Math.max(1, n) * arrays[0].BYTES_PER_ELEMENT), n);
    let at = 0;
    for (const a of arrays) {
      out.set(a, at);
      at += a.length;
    }
    return out;
  };
  const int32 = (buffer: SharedArrayBuffer, n: number) => new Int32Array(buffer, 0, n);
  const wide = parts.some((part) => part.codes instanceof Int32Array);
  return {
    runs: concat(
      parts.map((p) => p.runs),
      int32,
    ),
    anchorCounts: concat(
      parts.map((p) => p.anchorCounts),
      int32,
    ),
    codes: wide
      ? concat(
          parts.map((p) => Int32Array.from(p.codes)),
          int32,
        )
      : concat(
          parts.map((p) => p.codes as Uint16Array),
          (buffer, n) => new Uint16Array(buffer, 0, n),
        ),
    anchors: concat(
      parts.map((p) => p.anchors),
      int32,
    ),
  };
}

/**
 * Makes the setup's BM25 document terms (when it has them) the table BM25 reads for `docs` and `queries` with its
 * default tokenizer, in this thread.
 */
export function useSetupTerms(docs: readonly Doc[], queries: readonly Query[], setup: DocSetup): void {
  const terms = setup.terms;
  if (!terms) return;
  const vocabulary = defaultVocabulary(queries);
  const rows = new Map<string, DocTerms>();
  let at = 0;
  let anchorAt = 0;
  docs.forEach((doc, i) => {
    const runs = terms.runs[i];
    if (runs < 0) return;
    const anchorCount = terms.anchorCounts[i];
    // A repeated id kept in two shares: a single build keeps the first.
    if (!rows.has(doc.id))
      rows.set(doc.id, {
        text: doc.text,
        codes: terms.codes.subarray(at, at + runs),
        anchors: terms.anchors.subarray(anchorAt, anchorAt + anchorCount),
      });
    at += runs;
    anchorAt += anchorCount;
  });
  rememberDocTermTable(docs, vocabulary, {}, docTermTableOf(vocabularyTermIds(vocabulary), {}, rows));
}

/** The straddling pairs of the setup's corpus, as `straddlingPairs(docs)` gives them. */
export function setupPairs(docs: readonly Doc[], setup: DocSetup): StraddlingPair[] {
  const { pairs } = setup;
  const out: StraddlingPair[] = new Array(pairs.length / 3);
  for (let i = 0; i < out.length; i++)
    out[i] = { doc: docs[pairs[3 * i]].id, start: pairs[3 * i + 1], end: pairs[3 * i + 2] };
  return out;
}

/** Document i's token pieces, as views on the shared arrays. */
export function setupPieces(setup: DocSetup, i: number): DocPieces {
  const from = setup.pieceStart[i];
  const to = setup.pieceStart[i + 1];
  return { ends: setup.ends.subarray(from, to), cumulative: setup.cumulative.subarray(from + i, to + i + 1) };
}
