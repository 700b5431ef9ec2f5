import { totalChars, type Doc, type Query } from "../core/types";
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

// What every config of a sweep needs of the documents alone: the sentence pairs straddling paragraph breaks, each
// document's token pieces, and (for BM25 with its default tokenizer) the documents' term table. Each thread builds
// them for a share of the documents and the shares are merged into SharedArrayBuffers every thread reads: built
// whole per thread, two threads read the corpus twice (about a second of CPU each on opentelemetry-docs).

/** The encoding rows count embedded tokens in. */
export const SETUP_ENCODING = "cl100k_base";

/** The setup of the documents [from, to), as typed arrays (they cross a thread boundary). */
export type DocSetupPart = ReturnType<typeof computeDocSetupPart>;

/** BM25 document-term rows: `runs[i]` codes and `anchorCounts[i]` anchors for document i, runs[i] = -1 for none. */
type TermRows = ReturnType<typeof termRowsOf>;

/** The setup of a whole corpus, in SharedArrayBuffers. */
export type DocSetup = ReturnType<typeof mergeDocSetup>;

/** Whether some config ranks with BM25 and its default tokenizer (no stemming, no stop words). */
export function usesDefaultBm25(configs: readonly ExperimentConfig[]): boolean {
  return configs.some((config) => {
    const r = config.retrieval;
    const settings = r.retrieverSettings ?? {};
    return (r.retriever ?? "bm25") === "bm25" && !settings.stem && !settings.stopWords;
  });
}

const defaultVocabulary = (queries: readonly Query[]) => queryVocabulary(queries.map((query) => query.text));

/** Term rows built apart equal a single build's only while the whole table keeps every document (`DOC_TERMS_CAP`). */
export function setupTermsFit(docs: readonly Doc[], wanted: boolean): boolean {
  return wanted && totalChars(docs) <= DOC_TERMS_CAP;
}

function termRowsOf(range: readonly Doc[], queries: readonly Query[]) {
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
  const anchors = rows.map((row) => row.anchors);
  return { runs, anchorCounts, codes: concatCodes(rows.map((row) => row.codes)), anchors: concat(anchors, Int32Array) };
}

type Typed = Int32Array | Uint16Array | Float64Array;

/** The arrays one after another in a new `Type` array, on a SharedArrayBuffer when `shared`. */
function concat<T extends Typed>(
  arrays: readonly ArrayLike<number>[],
  Type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
  shared = false,
): T {
  const n = arrays.reduce((sum, a) => sum + a.length, 0);
  const bytes = Math.max(1, n) * Type.BYTES_PER_ELEMENT;
  const out = new Type(shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes), 0, n);
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** Term codes stay 16-bit unless some row needs 32. */
const concatCodes = (codes: readonly (Uint16Array | Int32Array)[], shared = false) =>
  codes.some((c) => c instanceof Int32Array) ? concat(codes, Int32Array, shared) : concat(codes, Uint16Array, shared);

/** Pairs and token pieces of the documents [from, to), and BM25's document terms for `queries` when given. */
export function computeDocSetupPart(docs: readonly Doc[], from: number, to: number, queries?: readonly Query[]) {
  const range = docs.slice(from, to);
  const position = new Map(range.map((doc, i) => [doc.id, from + i]));
  const found = straddlingPairs(range);
  // Straddling pairs as (document index, start, end) triples, in corpus order.
  const pairs = new Int32Array(3 * found.length);
  found.forEach((pair, i) => {
    pairs[3 * i] = position.get(pair.doc) as number;
    pairs[3 * i + 1] = pair.start;
    pairs[3 * i + 2] = pair.end;
  });
  const pieces = range.map((doc) => documentPieces(doc.text, SETUP_ENCODING));
  const pieceCounts = Int32Array.from(pieces, (p) => p.ends.length);
  const [pieceEnds, pieceTotals] = [pieces.map((p) => p.ends), pieces.map((p) => p.cumulative)];
  const ends = concat(pieceEnds, Int32Array); // every piece's end offset, document after document
  // Running token totals, document after document: pieceCounts[i] + 1 entries each, starting at 0.
  const cumulative = concat(pieceTotals, Float64Array);
  return { from, to, pairs, pieceCounts, ends, cumulative, ...(queries ? { terms: termRowsOf(range, queries) } : {}) };
}

/** Document ranges for `parts` threads, of about equal characters (what pieces and pairs cost). */
export function setupRanges(docs: readonly Doc[], parts: number): [number, number][] {
  const total = totalChars(docs);
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

/**
 * The parts (covering the documents in order, each once) merged into shared arrays. Document i's piece ends are
 * ends[pieceStart[i] .. pieceStart[i + 1]); its running token totals start at cumulative[pieceStart[i] + i].
 */
export function mergeDocSetup(parts: readonly DocSetupPart[], docCount: number) {
  const sorted = [...parts].sort((a, b) => a.from - b.from);
  let next = 0;
  for (const part of sorted) {
    if (part.from !== next) throw new Error(`doc setup: parts leave documents ${next}..${part.from} out`);
    next = part.to;
  }
  if (next !== docCount) throw new Error(`doc setup: parts end at document ${next} of ${docCount}`);
  const column = <K extends "pairs" | "ends" | "cumulative" | "pieceCounts">(key: K) => sorted.map((p) => p[key]);
  const pairs = concat(column("pairs"), Int32Array, true);
  const ends = concat(column("ends"), Int32Array, true);
  const cumulative = concat(column("cumulative"), Float64Array, true);
  const pieceCounts = concat(column("pieceCounts"), Int32Array);
  const pieceStart = concat([new Int32Array(docCount + 1)], Int32Array, true);
  for (let i = 0; i < docCount; i++) pieceStart[i + 1] = pieceStart[i] + pieceCounts[i];
  const terms = sorted.every((part) => part.terms !== undefined)
    ? mergeTermRows(sorted.map((part) => part.terms as TermRows))
    : undefined;
  return { docCount, pairs, pieceStart, ends, cumulative, ...(terms ? { terms } : {}) };
}

function mergeTermRows(parts: readonly TermRows[]): TermRows {
  const column = <K extends keyof TermRows>(key: K) => parts.map((p) => p[key]);
  const join = (key: "runs" | "anchorCounts" | "anchors") => concat(column(key), Int32Array, true);
  return {
    runs: join("runs"),
    anchorCounts: join("anchorCounts"),
    codes: concatCodes(column("codes"), true),
    anchors: join("anchors"),
  };
}

/** Makes the setup's BM25 document terms, when it has them, the table BM25 reads in this thread. */
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
