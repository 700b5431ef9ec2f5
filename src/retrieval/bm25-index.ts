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
import { tokenize, tokenizerKey, type TokenizerOptions } from "./tokenize";

/**
 * Okapi BM25: score(q, d) = Σ_{t in q} idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl)).
 * Query terms count with repeats (as SQLite FTS5 and Lucene's boolean sum). `idf: "lucene"` (default) is
 * ln(1 + (N − n + 0.5)/(n + 0.5)); `"robertson"` is ln((N − n + 0.5)/(n + 0.5)) floored at 1e-6, as FTS5's bm25().
 * We keep the classic (k1+1) factor Lucene ≥ 8 drops: rankings are the same. Ties go to the lower text index.
 */
export interface Bm25Options extends TokenizerOptions {
  k1?: number;
  b?: number;
  idf?: "lucene" | "robertson";
}

export type Bm25Index = Readonly<ReturnType<typeof build>>;

/** With `vocabulary` (every query's terms), only those terms' postings are kept; scores stay the full index's. */
export interface Bm25Scope {
  vocabulary?: ReadonlySet<string>;
  recordedIdsCap?: number; // ids held between the build's passes (RECORDED_IDS_CAP); later texts are tokenized again
}

/** The terms of every query, as the index tokenizes them: the vocabulary of an index built for those queries. */
export function queryVocabulary(queries: readonly string[], options: Bm25Options = {}): Set<string> {
  const vocabulary = new Set<string>();
  for (const query of queries) for (const term of tokenize(query, options)) vocabulary.add(term);
  return vocabulary;
}

/** 4 bytes each: 256 MB at most. */
export const RECORDED_IDS_CAP = 64 * 1024 * 1024;

/** Builds the index. `texts[i]` gets id i, the id `search` returns. */
export function buildBm25Index(texts: readonly string[], options: Bm25Options = {}, scope: Bm25Scope = {}): Bm25Index {
  return build(texts, options, scope, null);
}

/** `buildBm25Index` of the chunks' texts, reading their terms from `table` where it can: the same index, cheaper. */
export function buildBm25IndexOfChunks(
  chunks: readonly Chunk[],
  table: DocTermTable,
  options: Bm25Options,
  scope: Bm25Scope & { vocabulary: ReadonlySet<string> },
): Bm25Index {
  const expected = vocabularyTermIds(scope.vocabulary);
  const sameIds =
    expected.size === table.termIds.size && [...expected].every(([term, id]) => table.termIds.get(term) === id);
  if (!sameIds || tokenizerKey(table.options) !== tokenizerKey(options))
    throw new Error("bm25: the document term table was built for another vocabulary or tokenizer settings.");
  const texts = chunks.map((chunk) => chunk.text);
  return build(texts, options, scope, { chunks, reader: chunkTermReader(table) });
}

function build(
  texts: readonly string[],
  options: Bm25Options,
  scope: Bm25Scope,
  spans: { chunks: readonly Chunk[]; reader: ChunkTermReader } | null,
) {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  if (!(Number.isFinite(k1) && k1 >= 0)) throw new SeamlabError(`BM25 k1 must be a number >= 0, got ${k1}.`);
  if (!(Number.isFinite(b) && b >= 0 && b <= 1)) throw new SeamlabError(`BM25 b must be in [0, 1], got ${b}.`);
  const vocabulary = scope.vocabulary ?? null; // then the only terms a query may hold
  const cap = scope.recordedIdsCap ?? RECORDED_IDS_CAP;
  const termIds = vocabulary ? vocabularyTermIds(vocabulary) : new Map<string, number>();
  let documentFrequency = new Int32Array(Math.max(termIds.size, 1024));
  let lastText = new Int32Array(documentFrequency.length).fill(-1);
  const textLength = new Int32Array(texts.length);
  // Two passes, so no (text, term, tf) list as long as the postings is held beside them (gigabytes at 1 GB of text).
  // Pass 1 counts lengths and document frequencies and records each text's term ids while under `cap`; pass 2 reads
  // them back, tokenizing again only texts past the cap. A build from spans records nothing: rereading is cheap.
  let recorded = new Int32Array(Math.min(cap, 1 << 16));
  let recordedLength = 0;
  const recordedEnd = new Int32Array(texts.length);
  let recordedTexts = 0;
  let recording = spans === null;
  let totalLength = 0;
  const tokenized: ChunkTerms = { ids: new Int32Array(1024), count: 0, length: 0 };
  /** Text i's indexed term ids (with repeats) and term count; a new term gets the next id when `addTerms`. */
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
  const postingStart = new Int32Array(termCount + 1); // term t's postings: [postingStart[t], postingStart[t+1])
  for (let t = 0; t < termCount; t++) postingStart[t + 1] = postingStart[t] + documentFrequency[t];
  const postings = postingStart[termCount];
  // Pass 2: each text's term frequencies appended to its terms' postings, so every posting list is in text order.
  const fill = postingStart.slice(0, termCount);
  // Two bytes a posting's text: its low 16 bits; term t's postings of texts in block j (of `BLOCK` texts) are
  // [blockStart[t·(textBlocks+1) + j], blockStart[t·(textBlocks+1) + j + 1]).
  const postingTextLow = new Uint16Array(postings);
  const textBlocks = Math.max(1, Math.ceil(texts.length / BLOCK));
  const blockStart = new Int32Array(termCount * (textBlocks + 1));
  for (let t = 0; t < termCount; t++) {
    blockStart[t * (textBlocks + 1)] = postingStart[t];
    blockStart[t * (textBlocks + 1) + textBlocks] = postingStart[t + 1];
  }
  // One byte a frequency, `FREQUENCY_ESCAPE` sending it to `frequencyOverflow`: one array type for every index, as
  // switching between Uint8Array and Uint16Array deoptimised the build and search loops (bench:workers).
  const postingFrequency = new Uint8Array(postings);
  const frequencyOverflow = new Map<number, number>();
  const frequency = new Int32Array(termCount);
  const present = new Int32Array(termCount);
  for (let i = 0; i < texts.length; i++) {
    if (i % BLOCK === 0 && i > 0) {
      const j = i / BLOCK;
      for (let t = 0; t < termCount; t++) blockStart[t * (textBlocks + 1) + j] = fill[t];
    }
    const terms = i < recordedTexts ? null : termsOf(i, false);
    const ids = terms ? terms.ids : recorded;
    const from = terms || i === 0 ? 0 : recordedEnd[i - 1];
    const to = terms ? terms.count : recordedEnd[i];
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
      postingFrequency[slot] = Math.min(tf, FREQUENCY_ESCAPE);
      if (tf >= FREQUENCY_ESCAPE) frequencyOverflow.set(slot, tf);
      frequency[id] = 0;
    }
  }
  const n = texts.length;
  const idf = new Float64Array(termCount);
  for (let t = 0; t < termCount; t++) {
    const ratio = (n - documentFrequency[t] + 0.5) / (documentFrequency[t] + 0.5);
    const robertson = Math.log(ratio);
    idf[t] = options.idf !== "robertson" ? Math.log(1 + ratio) : robertson <= 0 ? 1e-6 : robertson;
  }
  const averageLength = n === 0 ? 0 : totalLength / n;
  const lengthNorm = new Float64Array(n); // k1·(1 − b + b·|d|/avgdl)
  for (let i = 0; i < n; i++)
    lengthNorm[i] = k1 * (1 - b + (averageLength === 0 ? 0 : (b * textLength[i]) / averageLength));
  const upperBound = new Float64Array(termCount); // the most term t adds to any text, for pruning
  for (let t = 0; t < termCount; t++) {
    let most = 0;
    for (let j = 0; j < textBlocks; j++) {
      const at = t * (textBlocks + 1) + j;
      for (let p = blockStart[at]; p < blockStart[at + 1]; p++) {
        const tf = frequencyAt(postingFrequency, frequencyOverflow, p);
        most = Math.max(most, contribution(idf[t], tf, k1, lengthNorm[j * BLOCK + postingTextLow[p]]));
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

export const FREQUENCY_ESCAPE = 255;

export function frequencyAt(frequencies: Uint8Array, overflow: ReadonlyMap<number, number>, p: number): number {
  const tf = frequencies[p];
  return tf < FREQUENCY_ESCAPE ? tf : (overflow.get(p) as number);
}

export const BLOCK = 65_536;
export const LOW = BLOCK - 1;

/** What one occurrence of a term in the query adds to a text's score: the one formula every search uses. */
export function contribution(weight: number, tf: number, k1: number, lengthNorm: number): number {
  return (weight * (tf * (k1 + 1))) / (tf + lengthNorm);
}
