import type { Chunk, Doc } from "../core/types";
import { lowerBound } from "../core/sorted";
import { lowerTermRuns, NOT_ASCII, TERM } from "../text/term-runs";
import { indexTerm, tokenize, tokenizerKey, type TokenizerOptions } from "./tokenize";

/**
 * Chunk terms read from their documents, tokenized once for every config of a sweep: the document's terms inside the
 * span plus the pieces of runs a span edge cuts. Only documents whose lowercasing keeps lengths and runs in place (no
 * capital sigma) qualify; other chunks are tokenized from their text.
 */
export type DocTermTable = Readonly<ReturnType<typeof docTermTableOf>>;

export interface DocTerms {
  readonly text: string;
  readonly codes: Uint16Array | Int32Array;
  readonly anchors: Int32Array; // anchors[j] = start of run j·ANCHOR_EVERY
}

const ANCHOR_EVERY = 8;

/** Runs the table keeps by default: 512 MB of 2-byte codes (about 1.4 GB of English text). */
export const DOC_TERMS_CAP = 256 * 1024 * 1024;

const SIGMA = "\u03a3";

/** Starts of `runs` (matches of TERM, in order) in `text`. */
function runStarts(text: string, runs: readonly string[]): Int32Array {
  const starts = new Int32Array(runs.length);
  let at = 0;
  for (let j = 0; j < runs.length; j++) {
    starts[j] = text.indexOf(runs[j], at);
    at = starts[j] + runs[j].length;
  }
  return starts;
}

// One character of TERM, to step along runs without the pattern (documents where this disagrees are not kept).
const TERM_CHAR = new RegExp(`^${TERM.source.slice(0, -1)}$`, "u");
const ASCII_TERM_CHAR = Uint8Array.from({ length: 128 }, (_, c) => (TERM_CHAR.test(String.fromCharCode(c)) ? 1 : 0));

/** The UTF-16 length of the term character at `i` (2 for a letter outside the BMP), or 0 when it is none. */
function termCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_TERM_CHAR[c];
  if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d < 0xe000) return TERM_CHAR.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  return TERM_CHAR.test(text[i]) ? 1 : 0;
}

function runEnd(text: string, start: number): number {
  let end = start;
  for (let step = termCharAt(text, end); step > 0 && end < text.length; step = termCharAt(text, end)) end += step;
  return end;
}

/** The start of the first run at or after `from`, or the text's length. */
function nextRun(text: string, from: number): number {
  let at = from;
  while (at < text.length && termCharAt(text, at) === 0) at++;
  return at;
}

/** Whether `text`'s runs sit where its lowercased form's do, and stepping along characters finds exactly them. */
function sameRuns(text: string, lower: string, runs: readonly string[]): boolean {
  if (!NOT_ASCII.test(text)) return true;
  const original = text.match(TERM) ?? [];
  if (original.length !== runs.length) return false;
  const a = runStarts(text, original);
  const b = runStarts(lower, runs);
  let at = nextRun(text, 0);
  for (let j = 0; j < runs.length; j++) {
    if (a[j] !== b[j] || original[j].length !== runs[j].length || at !== a[j]) return false;
    const end = runEnd(text, at);
    if (end !== a[j] + runs[j].length) return false;
    at = nextRun(text, end);
  }
  return at === text.length;
}

/** Tokenizes every qualifying document once, coding each run by `termIds`, until `cap` runs are kept. */
export function buildDocTermTable(
  docs: readonly Doc[],
  termIds: ReadonlyMap<string, number>,
  options: TokenizerOptions = {},
  cap = DOC_TERMS_CAP,
): DocTermTable {
  const other = termIds.size;
  const stop = other + 1;
  const wide = stop >= 65_536;
  const kept = new Map<string, DocTerms>();
  let total = 0;
  for (const doc of docs) {
    const text = doc.text;
    const lower = text.toLowerCase();
    if (lower.length !== text.length || text.includes(SIGMA) || kept.has(doc.id)) continue;
    const runs = lowerTermRuns(lower);
    if (total + runs.length > cap) break;
    if (!sameRuns(text, lower, runs)) continue;
    total += runs.length;
    const codes = wide ? new Int32Array(runs.length) : new Uint16Array(runs.length);
    const anchors = new Int32Array(Math.ceil(runs.length / ANCHOR_EVERY));
    const starts = runStarts(lower, runs);
    for (let j = 0; j < runs.length; j++) {
      if (j % ANCHOR_EVERY === 0) anchors[j / ANCHOR_EVERY] = starts[j];
      const term = indexTerm(runs[j], options);
      codes[j] = term === null ? stop : (termIds.get(term) ?? other);
    }
    kept.set(doc.id, { text, codes, anchors });
  }
  return docTermTableOf(termIds, options, kept);
}

/** The first run starting at or after an offset, and the run before it. */
type Edge = { index: number; previousStart: number; previousEnd: number };

function locate(entry: DocTerms, offset: number, edge: Edge): void {
  const { anchors, text } = entry;
  const low = lowerBound(anchors, offset);
  edge.previousStart = -1;
  edge.previousEnd = -1;
  let index = Math.max(0, low - 1) * ANCHOR_EVERY;
  for (let start = low === 0 ? offset : anchors[low - 1]; start < offset && start < text.length; index++) {
    const end = runEnd(text, start);
    edge.previousStart = start;
    edge.previousEnd = end;
    start = nextRun(text, end);
  }
  edge.index = index;
}

/** A chunk's indexed term ids (`ids[0 .. count)`, with repeats, any order) and its term count (`length`). */
export interface ChunkTerms {
  ids: Int32Array;
  count: number;
  length: number;
}

export type ChunkTermReader = ReturnType<typeof chunkTermReader>;

/** A vocabulary's term ids, in sorted order so that they do not depend on the set's. */
export function vocabularyTermIds(vocabulary: ReadonlySet<string>): Map<string, number> {
  const termIds = new Map<string, number>();
  for (const term of [...vocabulary].sort()) termIds.set(term, termIds.size);
  return termIds;
}

// The latest table per documents array: every config of a sweep reads the same one.
const tables = new WeakMap<readonly Doc[], { key: string; table: DocTermTable }>();

const tableKey = (vocabulary: ReadonlySet<string>, options: TokenizerOptions) =>
  JSON.stringify([tokenizerKey(options), [...vocabulary].sort()]);

/** A table from rows built elsewhere (in document order, first of a repeated id only), as `buildDocTermTable`'s. */
export function docTermTableOf(
  termIds: ReadonlyMap<string, number>,
  options: TokenizerOptions,
  rows: ReadonlyMap<string, DocTerms>,
) {
  // a run whose term is not in `termIds` is coded `other` and counts towards a chunk's length only; a stop word,
  // coded `stop`, is no term at all; `covered`: the documents kept
  return { termIds, other: termIds.size, stop: termIds.size + 1, options, docs: rows, covered: rows.size };
}

/** Makes `table` what `sharedDocTermTable` answers for these documents, vocabulary and settings. */
export function rememberDocTermTable(
  docs: readonly Doc[],
  vocabulary: ReadonlySet<string>,
  options: TokenizerOptions,
  table: DocTermTable,
): void {
  tables.set(docs, { key: tableKey(vocabulary, options), table });
}

/** `buildDocTermTable` for a vocabulary, or the one already built for the same documents, vocabulary and settings. */
export function sharedDocTermTable(
  docs: readonly Doc[],
  vocabulary: ReadonlySet<string>,
  options: TokenizerOptions = {},
): DocTermTable {
  const known = tables.get(docs);
  if (known?.key === tableKey(vocabulary, options)) return known.table;
  tables.delete(docs);
  const table = buildDocTermTable(docs, vocabularyTermIds(vocabulary), options);
  rememberDocTermTable(docs, vocabulary, options, table);
  return table;
}

/** A reader for `readChunkTerms` with its own buffers (one chunk at a time). */
export function chunkTermReader(table: DocTermTable) {
  return {
    table,
    out: { ids: new Int32Array(1024), count: 0, length: 0 },
    left: { index: 0, previousStart: -1, previousEnd: -1 },
    right: { index: 0, previousStart: -1, previousEnd: -1 },
  };
}

function grow(out: ChunkTerms, size: number): void {
  const grown = new Int32Array(Math.max(size, 2 * out.ids.length));
  grown.set(out.ids.subarray(0, out.count));
  out.ids = grown;
}

/** Adds the terms of `text[from, to)` read on its own (a run cut by a span edge). */
function addPiece(reader: ChunkTermReader, text: string, from: number, to: number): void {
  const { out, table } = reader;
  for (const term of tokenize(text.slice(from, to), table.options)) {
    out.length++;
    const id = table.termIds.get(term);
    if (id === undefined) continue;
    if (out.count === out.ids.length) grow(out, out.count + 1);
    out.ids[out.count++] = id;
  }
}

/** Whether the chunk's text is exactly `text[chunk.start, chunk.end)` (its document's text). */
export function isSpanOf(chunk: Chunk, text: string): boolean {
  const { start, end } = chunk;
  // a slice shares the document's characters and compares as a block: cheaper than startsWith
  return start >= 0 && end <= text.length && chunk.text.length === end - start && text.slice(start, end) === chunk.text;
}

/** Fills `reader.out` with exactly `tokenize(chunk.text)`'s terms; false when the chunk text must be tokenized. */
export function readChunkTerms(reader: ChunkTermReader, chunk: Chunk): boolean {
  const { table, out, left, right } = reader;
  const entry = table.docs.get(chunk.doc);
  if (entry === undefined) return false;
  const { start, end } = chunk;
  const text = entry.text;
  if (!isSpanOf(chunk, text)) return false;
  out.count = 0;
  out.length = 0;
  locate(entry, start, left);
  locate(entry, end, right);
  const first = left.index;
  let last = right.index;
  // A run across the start (and maybe the end too): only its part inside the chunk.
  if (left.previousEnd > start) addPiece(reader, text, start, Math.min(left.previousEnd, end));
  // A run starting inside and crossing the end: only its part before the end.
  if (last > first && right.previousEnd > end) {
    last--;
    addPiece(reader, text, right.previousStart, end);
  }
  const { codes } = entry;
  const { other } = table;
  if (out.count + last - first > out.ids.length) grow(out, out.count + last - first);
  const ids = out.ids;
  let count = out.count;
  let length = out.length;
  for (let j = first; j < last; j++) {
    const code = codes[j];
    if (code <= other) length++; // a stop word is no term
    if (code < other) ids[count++] = code;
  }
  out.count = count;
  out.length = length;
  return true;
}
