import type { Chunk } from "../core/types";
import { SeamlabError } from "../core/errors";
import {
  chunkTermReader,
  readChunkTerms,
  vocabularyTermIds,
  type ChunkTermReader,
  type ChunkTerms,
  type DocTermTable,
} from "./doc-terms";
import { tokenize, type TokenizerOptions } from "./tokenize";

/**
 * Okapi BM25 over a fixed list of texts (chunks).
 *
 *   score(q, d) = Σ_{t in q} idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 *
 * - The sum runs over the query's terms *with repeats* (a term said twice counts twice), like SQLite FTS5
 *   and Lucene's boolean sum; |d| is the term count of d after tokenizing; avgdl the mean over all texts.
 * - `idf: "lucene"` (default): ln(1 + (N − n + 0.5)/(n + 0.5)), always > 0 (Lucene / Elasticsearch).
 *   `idf: "robertson"`: ln((N − n + 0.5)/(n + 0.5)) floored at 1e-6, which is what SQLite FTS5's `bm25()`
 *   uses (FTS5 then returns the negated score). N = number of texts, n = texts containing the term.
 * - Lucene ≥ 8 drops the constant (k1+1) factor; we keep it (classic form). It does not change rankings.
 * - Texts with no query term score nothing and are not returned, so a search may return fewer than k.
 * - Ties are broken by lower text index, so results are deterministic.
 *
 * Postings are kept in typed arrays (CSR: for each term, a run of text ids and term frequencies), so a
 * query touches only the texts that contain its terms and an index rebuild per sweep config is cheap.
 */
export interface Bm25Options extends TokenizerOptions {
  k1?: number;
  b?: number;
  idf?: "lucene" | "robertson";
}

export interface Bm25Index {
  readonly textCount: number;
  readonly averageLength: number;
  /** term -> term id */
  readonly termIds: Map<string, number>;
  /**
   * The only terms a query may hold when the index was built for known queries (see `Bm25Scope`), else null
   * (any term). Searching for a term outside it throws: its postings were never collected.
   */
  readonly vocabulary: ReadonlySet<string> | null;
  /** postings of term t are positions [postingStart[t], postingStart[t+1]) of postingTextLow / postingFrequency */
  readonly postingStart: Int32Array;
  /**
   * The low 16 bits of each posting's text id. Text ids are cut into blocks of 65,536 (`textBlocks` of them; one
   * for an index of up to 65,536 texts); term t's postings of texts in block j are positions
   * [blockStart[t·(textBlocks+1) + j], blockStart[t·(textBlocks+1) + j + 1]), so a posting's text is
   * j·65,536 + postingTextLow[p]. Two bytes a posting instead of four: postings are most of a large index.
   */
  readonly postingTextLow: Uint16Array;
  readonly textBlocks: number;
  readonly blockStart: Int32Array;
  /**
   * Each posting's term frequency in one byte, exact below `FREQUENCY_ESCAPE` (255); a posting holding 255 has its
   * frequency in `frequencyOverflow`. One array type for every index: when indexes of both short and long chunks
   * went through the same code with a Uint8Array or a Uint16Array, V8 deoptimised the build and search loops each
   * time the other type came (about 20 deoptimisations and as many recompilations per worker thread on a study
   * grid, bench:workers).
   */
  readonly postingFrequency: Uint8Array;
  /** Posting position -> term frequency, for the postings whose frequency is at least `FREQUENCY_ESCAPE`. */
  readonly frequencyOverflow: ReadonlyMap<number, number>;
  readonly textLength: Int32Array;
  readonly idf: Float64Array;
  /** k1·(1 − b + b·|d|/avgdl), precomputed per text */
  readonly lengthNorm: Float64Array;
  /** The largest score term t adds to any text (one occurrence in the query), for pruning searches. */
  readonly upperBound: Float64Array;
  readonly k1: number;
  readonly b: number;
  readonly options: Bm25Options;
}

/**
 * What an index must answer. With `vocabulary` (the terms of every query that will run), postings are kept for
 * those terms only. Scores stay exactly the full index's: a score reads only the query terms' document
 * frequencies and term frequencies, the text count and each text's length, and all of those are still counted
 * over every term of every text. Only the memory (and the term map) shrinks to what the queries can reach.
 */
export interface Bm25Scope {
  vocabulary?: ReadonlySet<string>;
  /**
   * Term ids the build keeps between its two passes (default `RECORDED_IDS_CAP`); texts past it are tokenized a
   * second time instead. A build from document spans (`buildBm25IndexOfChunks`) keeps none: it reads them again.
   * Changes memory and time only, never the index.
   */
  recordedIdsCap?: number;
}

function checkParameters(k1: number, b: number): void {
  if (!(Number.isFinite(k1) && k1 >= 0)) throw new SeamlabError(`BM25 k1 must be a number >= 0, got ${k1}.`);
  if (!(Number.isFinite(b) && b >= 0 && b <= 1)) throw new SeamlabError(`BM25 b must be in [0, 1], got ${b}.`);
}

/** The terms of every query, as the index tokenizes them: the vocabulary of an index built for those queries. */
export function queryVocabulary(queries: readonly string[], options: Bm25Options = {}): Set<string> {
  const vocabulary = new Set<string>();
  for (const query of queries) for (const term of tokenize(query, options)) vocabulary.add(term);
  return vocabulary;
}

/** Term ids pass 1 keeps for pass 2 by default (4 bytes each: 256 MB at most); see `Bm25Scope.recordedIdsCap`. */
export const RECORDED_IDS_CAP = 64 * 1024 * 1024;

/** Builds the index. `texts[i]` gets id i, the id `search` returns. */
export function buildBm25Index(texts: readonly string[], options: Bm25Options = {}, scope: Bm25Scope = {}): Bm25Index {
  return build(texts, options, scope, null);
}

/**
 * `buildBm25Index` of the chunks' texts for a vocabulary, reading each chunk's terms from `table` (its documents,
 * tokenized once) where it can instead of tokenizing the chunk: the same index, cheaper when many configs chunk the
 * same documents. The table must have been built for `vocabulary` and `options`' tokenizer settings.
 */
export function buildBm25IndexOfChunks(
  chunks: readonly Chunk[],
  table: DocTermTable,
  options: Bm25Options,
  scope: Bm25Scope & { vocabulary: ReadonlySet<string> },
): Bm25Index {
  const expected = vocabularyTermIds(scope.vocabulary);
  const sameIds =
    expected.size === table.termIds.size && [...expected].every(([term, id]) => table.termIds.get(term) === id);
  const stops = (words: ReadonlySet<string> | undefined) => (words ? [...words].sort().join(" ") : "");
  if (
    !sameIds ||
    !!table.options.stem !== !!options.stem ||
    stops(table.options.stopWords) !== stops(options.stopWords)
  )
    throw new Error("bm25: the document term table was built for another vocabulary or tokenizer settings.");
  return build(
    chunks.map((chunk) => chunk.text),
    options,
    scope,
    { chunks, reader: chunkTermReader(table) },
  );
}

function build(
  texts: readonly string[],
  options: Bm25Options,
  scope: Bm25Scope,
  spans: { chunks: readonly Chunk[]; reader: ChunkTermReader } | null,
): Bm25Index {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  checkParameters(k1, b);
  const vocabulary = scope.vocabulary ?? null;
  const cap = scope.recordedIdsCap ?? RECORDED_IDS_CAP;
  // A scoped index knows its terms up front (sorted, so ids do not depend on the set's order) and skips the rest.
  const termIds = vocabulary ? vocabularyTermIds(vocabulary) : new Map<string, number>();
  let documentFrequency = new Int32Array(Math.max(termIds.size, 1024));
  let lastText = new Int32Array(documentFrequency.length).fill(-1);
  const textLength = new Int32Array(texts.length);
  // Two passes over the texts, so that no (text, term, tf) list as long as the postings is held beside them while
  // they are built: at 1 GB of chunk text that list alone took gigabytes. Pass 1 tokenizes, counts lengths (every
  // term counts) and document frequencies (a term once per text), and keeps each text's indexed term ids in one
  // packed buffer while it stays under `cap` entries; pass 2 reads them back and tokenizes again only
  // the texts past the cap, so an ordinary corpus is tokenized once and a huge one stays within bounded memory.
  let recorded = new Int32Array(Math.min(cap, 1 << 16));
  let recordedLength = 0;
  const recordedEnd = new Int32Array(texts.length);
  let recordedTexts = 0; // texts 0 .. recordedTexts-1 have their ids in `recorded`
  // Reading a chunk's ids from its documents again costs little next to tokenizing it: a build from spans keeps no
  // ids between its passes (at 1 GB the buffer would take its whole 256 MB beside the documents' table).
  let recording = spans === null;
  let totalLength = 0;
  // Text i's indexed term ids (with repeats) land in `found.ids[0 .. found.count)`, its term count in `found.length`:
  // read from its document's span, or tokenized (a new term gets the next id unless the index is scoped).
  const tokenized: ChunkTerms = { ids: new Int32Array(1024), count: 0, length: 0 };
  const termsOf = (i: number, addTerms: boolean): ChunkTerms => {
    if (spans !== null && readChunkTerms(spans.reader, spans.chunks[i])) return spans.reader.out;
    const terms = tokenize(texts[i], options);
    if (tokenized.ids.length < terms.length) tokenized.ids = new Int32Array(2 * terms.length);
    let count = 0;
    for (const term of terms) {
      let id = termIds.get(term);
      if (id === undefined) {
        if (!addTerms) continue;
        id = termIds.size;
        termIds.set(term, id);
        if (id === documentFrequency.length) {
          const frequencies = new Int32Array(2 * id);
          frequencies.set(documentFrequency);
          documentFrequency = frequencies;
          const last = new Int32Array(2 * id).fill(-1);
          last.set(lastText);
          lastText = last;
        }
      }
      tokenized.ids[count++] = id;
    }
    tokenized.count = count;
    tokenized.length = terms.length;
    return tokenized;
  };
  for (let i = 0; i < texts.length; i++) {
    const { ids, count, length } = termsOf(i, vocabulary === null);
    textLength[i] = length;
    totalLength += length;
    if (recording && recordedLength + count > recorded.length) {
      if (recordedLength + count > cap) recording = false;
      else {
        const grown = new Int32Array(Math.min(cap, Math.max(2 * recorded.length, recordedLength + count)));
        grown.set(recorded.subarray(0, recordedLength));
        recorded = grown;
      }
    }
    if (recording) {
      recorded.set(ids.subarray(0, count), recordedLength);
      recordedLength += count;
      recordedEnd[i] = recordedLength;
      recordedTexts = i + 1;
    }
    for (let p = 0; p < count; p++) {
      const id = ids[p];
      if (lastText[id] !== i) {
        lastText[id] = i;
        documentFrequency[id]++;
      }
    }
  }
  const termCount = termIds.size;
  const postingStart = new Int32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) postingStart[t + 1] = postingStart[t] + documentFrequency[t];
  const postings = postingStart[termCount];
  // Pass 2: each text's term frequencies appended to its terms' postings, so every posting list is in text order.
  const fill = postingStart.slice(0, termCount);
  const postingTextLow = new Uint16Array(postings);
  const textBlocks = Math.max(1, Math.ceil(texts.length / BLOCK));
  const blockStart = new Int32Array(termCount * (textBlocks + 1));
  for (let t = 0; t < termCount; t++) {
    blockStart[t * (textBlocks + 1)] = postingStart[t];
    blockStart[t * (textBlocks + 1) + textBlocks] = postingStart[t + 1];
  }
  const postingFrequency = new Uint8Array(postings);
  const frequencyOverflow = new Map<number, number>();
  const frequency = new Int32Array(termCount);
  const present = new Int32Array(termCount);
  for (let i = 0; i < texts.length; i++) {
    if (i % BLOCK === 0 && i > 0) {
      // every term's postings so far are of earlier blocks: the next block starts where each list stands now
      const j = i / BLOCK;
      for (let t = 0; t < termCount; t++) blockStart[t * (textBlocks + 1) + j] = fill[t];
    }
    let ids: Int32Array;
    let from = 0;
    let to: number;
    if (i < recordedTexts) {
      ids = recorded;
      from = i === 0 ? 0 : recordedEnd[i - 1];
      to = recordedEnd[i];
    } else {
      const terms = termsOf(i, false);
      ids = terms.ids;
      to = terms.count;
    }
    let distinct = 0;
    for (let p = from; p < to; p++) {
      const id = ids[p];
      if (frequency[id]++ === 0) present[distinct++] = id;
    }
    for (let q = 0; q < distinct; q++) {
      const id = present[q];
      const slot = fill[id]++;
      postingTextLow[slot] = i & LOW;
      const tf = frequency[id];
      if (tf < FREQUENCY_ESCAPE) postingFrequency[slot] = tf;
      else {
        postingFrequency[slot] = FREQUENCY_ESCAPE;
        frequencyOverflow.set(slot, tf);
      }
      frequency[id] = 0;
    }
  }
  const n = texts.length;
  const idf = new Float64Array(termCount);
  for (let t = 0; t < termCount; t++) {
    const df = documentFrequency[t];
    if (options.idf === "robertson") {
      const value = Math.log((n - df + 0.5) / (df + 0.5));
      idf[t] = value <= 0 ? 1e-6 : value;
    } else {
      idf[t] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    }
  }
  const averageLength = n === 0 ? 0 : totalLength / n;
  const lengthNorm = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lengthNorm[i] = k1 * (1 - b + (averageLength === 0 ? 0 : (b * textLength[i]) / averageLength));
  }
  const upperBound = new Float64Array(termCount);
  for (let t = 0; t < termCount; t++) {
    let most = 0;
    for (let j = 0; j < textBlocks; j++) {
      const base = j * BLOCK;
      const at = t * (textBlocks + 1) + j;
      for (let p = blockStart[at]; p < blockStart[at + 1]; p++) {
        const score = contribution(
          idf[t],
          frequencyAt(postingFrequency, frequencyOverflow, p),
          k1,
          lengthNorm[base + postingTextLow[p]],
        );
        if (score > most) most = score;
      }
    }
    upperBound[t] = most;
  }
  return {
    textCount: n,
    averageLength,
    termIds,
    vocabulary,
    postingStart,
    postingTextLow,
    textBlocks,
    blockStart,
    postingFrequency,
    frequencyOverflow,
    textLength,
    idf,
    lengthNorm,
    upperBound,
    k1,
    b,
    options,
  };
}

/** A one-byte term frequency at or above which the exact frequency is in `Bm25Index.frequencyOverflow`. */
export const FREQUENCY_ESCAPE = 255;

/** The term frequency of posting p. */
export function frequencyAt(frequencies: Uint8Array, overflow: ReadonlyMap<number, number>, p: number): number {
  const tf = frequencies[p];
  return tf < FREQUENCY_ESCAPE ? tf : (overflow.get(p) as number);
}

/** Texts per block of `Bm25Index.postingTextLow` (ids below one block's size fit its 16 bits). */
export const BLOCK = 65_536;
export const LOW = BLOCK - 1;

/** What one occurrence of a term in the query adds to a text's score: the one formula every path uses. */
export function contribution(weight: number, tf: number, k1: number, lengthNorm: number): number {
  return (weight * (tf * (k1 + 1))) / (tf + lengthNorm);
}
