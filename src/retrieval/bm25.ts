import { createHash } from "node:crypto";
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import {
  chunkTermReader,
  isSpanOf,
  readChunkTerms,
  sharedDocTermTable,
  vocabularyTermIds,
  type ChunkTermReader,
  type ChunkTerms,
  type DocTermTable,
} from "./doc-terms";
import { describeTokenizer, tokenize, type TokenizerOptions } from "./tokenize";
import type { RankedChunk, Retriever } from "./types";

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
function frequencyAt(frequencies: Uint8Array, overflow: ReadonlyMap<number, number>, p: number): number {
  const tf = frequencies[p];
  return tf < FREQUENCY_ESCAPE ? tf : (overflow.get(p) as number);
}

/** Texts per block of `Bm25Index.postingTextLow` (ids below one block's size fit its 16 bits). */
const BLOCK = 65_536;
const LOW = BLOCK - 1;
/** A cursor past its last posting: above every text id. */
const NONE = 0x7fffffff;

/** What one occurrence of a term in the query adds to a text's score: the one formula every path uses. */
function contribution(weight: number, tf: number, k1: number, lengthNorm: number): number {
  return (weight * (tf * (k1 + 1))) / (tf + lengthNorm);
}

/** Scores every text for the query (0 where no query term occurs). For tests and diagnostics. */
export function scoreAllBm25(index: Bm25Index, query: string): Float64Array {
  const scores = new Float64Array(index.textCount);
  accumulate(index, query, scores, null);
  return scores;
}

/** The query's term ids in query order, repeats kept; a term outside a scoped index's vocabulary throws. */
function queryTermIds(index: Bm25Index, query: string): number[] {
  const ids: number[] = [];
  for (const term of tokenize(query, index.options)) {
    const t = index.termIds.get(term);
    if (t === undefined) {
      if (index.vocabulary === null) continue;
      throw new Error(`bm25: "${term}" is outside the vocabulary this index was built for; build it for this query.`);
    }
    ids.push(t);
  }
  return ids;
}

/**
 * Adds the query's BM25 terms into `scores`; with `touched`, also lists each text that got its first score there
 * and returns how many (0 without it).
 */
function accumulate(index: Bm25Index, query: string, scores: Float64Array, touched: Int32Array | null): number {
  const { postingTextLow, textBlocks, blockStart, postingFrequency, frequencyOverflow, idf, lengthNorm, k1 } = index;
  let count = 0;
  for (const t of queryTermIds(index, query)) {
    const weight = idf[t];
    for (let j = 0; j < textBlocks; j++) {
      const base = j * BLOCK;
      const at = t * (textBlocks + 1) + j;
      for (let p = blockStart[at]; p < blockStart[at + 1]; p++) {
        const text = base + postingTextLow[p];
        const tf = frequencyAt(postingFrequency, frequencyOverflow, p);
        if (touched !== null && scores[text] === 0) touched[count++] = text;
        scores[text] += contribution(weight, tf, k1, lengthNorm[text]);
      }
    }
  }
  return count;
}

/** Orders by score descending, then text index ascending. */
function ranksBefore(scoreA: number, indexA: number, scoreB: number, indexB: number): boolean {
  return scoreA > scoreB || (scoreA === scoreB && indexA < indexB);
}

/** Puts the text into the sorted k best if it ranks there (the array holds at most k). */
function keepBest(best: RankedChunk[], k: number, text: number, score: number): void {
  if (best.length === k && !ranksBefore(score, text, best[k - 1].score, best[k - 1].index)) return;
  let at = best.length === k ? k - 1 : best.length;
  if (best.length < k) best.push({ index: text, score });
  while (at > 0 && ranksBefore(score, text, best[at - 1].score, best[at - 1].index)) {
    best[at] = best[at - 1];
    at--;
  }
  best[at] = { index: text, score };
}

/** Reusable buffers for `searchBm25` over one index: scores and the list of texts a query touched. */
export interface Bm25Scratch {
  scores: Float64Array;
  touched: Int32Array;
}

/** Buffers sized for `index`, for many searches in a row (one search at a time). */
export function bm25Scratch(index: Bm25Index): Bm25Scratch {
  return { scores: new Float64Array(index.textCount), touched: new Int32Array(index.textCount) };
}

/**
 * The k best texts for the query, best first; ties broken by lower index. A query of two or more distinct terms is
 * searched with MaxScore pruning (`searchBm25Pruned`), else every posting is scored (`searchBm25Exhaustive`): the
 * same texts, scores and order either way.
 */
export function searchBm25(index: Bm25Index, query: string, k: number, scratch?: Bm25Scratch): RankedChunk[] {
  if (k <= 0) return [];
  const terms = queryTermIds(index, query);
  if (new Set(terms).size >= 2) return searchBm25Pruned(index, terms, k);
  return searchBm25Exhaustive(index, query, k, scratch);
}

/** `searchBm25` scoring every posting of the query's terms, term by term. */
export function searchBm25Exhaustive(index: Bm25Index, query: string, k: number, scratch?: Bm25Scratch): RankedChunk[] {
  if (k <= 0) return [];
  const { scores, touched } = scratch ?? bm25Scratch(index);
  const count = accumulate(index, query, scores, touched);
  // Keep the k best in a small sorted array: k is tiny (5-20) next to the touched count.
  const best: RankedChunk[] = [];
  for (let i = 0; i < count; i++) keepBest(best, k, touched[i], scores[touched[i]]);
  for (let i = 0; i < count; i++) scores[touched[i]] = 0;
  return best;
}

// Bounds are sums taken in another order than the scores: a relative slack far above rounding keeps pruning exact.
const SLACK = 1 + 1e-9;

/**
 * `searchBm25` by MaxScore (Turtle & Flood 1995), texts in index order. Terms are sorted by the most they can add
 * to a score; once k texts are held, the weakest terms whose bounds together stay under the k-th score cannot lift a
 * text into the k best alone, so only texts holding one of the other ("essential") terms are candidates, and a
 * candidate's weaker terms are looked up (galloping along their postings) only while its bound can still reach the
 * k-th score. A candidate that can is scored exactly as the exhaustive search scores it, adding its terms in query
 * order, so scores are the same numbers; texts come in index order, so a later text that only ties the k-th loses,
 * as it does there.
 */
export function searchBm25Pruned(index: Bm25Index, queryTerms: readonly number[], k: number): RankedChunk[] {
  if (k <= 0) return [];
  const { postingStart, postingTextLow, textBlocks, blockStart, postingFrequency, frequencyOverflow } = index;
  const { idf, lengthNorm, upperBound, k1 } = index;
  const slots = new Map<number, number>();
  const slotTerm: number[] = [];
  const slotRepeats: number[] = [];
  for (const t of queryTerms) {
    const slot = slots.get(t) ?? slotTerm.length;
    if (slot === slotTerm.length) {
      slots.set(t, slot);
      slotTerm.push(t);
      slotRepeats.push(0);
    }
    slotRepeats[slot]++;
  }
  const m = slotTerm.length;
  const slotBound = (slot: number) => upperBound[slotTerm[slot]] * slotRepeats[slot];
  const order = slotTerm.map((_, slot) => slot).sort((a, b) => slotBound(a) - slotBound(b) || a - b);
  // Position i: the i-th weakest term. prefix[i] = the most terms 0..i can add together.
  const term = new Int32Array(m);
  const repeats = new Int32Array(m);
  const position = new Int32Array(m);
  const end = new Int32Array(m);
  // The text at each cursor (NONE past its last posting), the block its position is in, and where the term's block
  // starts are (`Bm25Index.blockStart`).
  const current = new Int32Array(m);
  const block = new Int32Array(m);
  const blocks = new Int32Array(m);
  const blockEnd = new Int32Array(m);
  const blockBase = new Int32Array(m);
  const tf = new Int32Array(m);
  const bound = new Float64Array(m);
  const prefix = new Float64Array(m);
  const rank = new Int32Array(m);
  order.forEach((slot, i) => {
    term[i] = slotTerm[slot];
    repeats[i] = slotRepeats[slot];
    position[i] = postingStart[term[i]];
    end[i] = postingStart[term[i] + 1];
    blocks[i] = term[i] * (textBlocks + 1);
    bound[i] = slotBound(slot);
    prefix[i] = (i === 0 ? 0 : prefix[i - 1]) + bound[i];
    rank[slot] = i;
  });
  // Cursor i now at `position[i]`: its block and text.
  const settle = (i: number) => {
    const p = position[i];
    if (p >= end[i]) {
      current[i] = NONE;
      return;
    }
    let j = block[i];
    while (p >= blockStart[blocks[i] + j + 1]) j++;
    block[i] = j;
    blockEnd[i] = blockStart[blocks[i] + j + 1];
    blockBase[i] = j * BLOCK;
    current[i] = blockBase[i] + postingTextLow[p];
  };
  for (let i = 0; i < m; i++) settle(i);
  const sequence = queryTerms.map((t) => rank[slots.get(t) as number]);
  const best: RankedChunk[] = [];
  let threshold = -Infinity;
  let essential = 0; // terms 0 .. essential-1 are not essential
  for (;;) {
    let text = NONE;
    for (let i = essential; i < m; i++) if (current[i] < text) text = current[i];
    if (text === NONE) break;
    const norm = lengthNorm[text];
    let most = essential === 0 ? 0 : prefix[essential - 1];
    for (let i = essential; i < m; i++) {
      if (current[i] === text) {
        const p = position[i];
        tf[i] = frequencyAt(postingFrequency, frequencyOverflow, p);
        position[i] = p + 1;
        if (p + 1 < blockEnd[i]) current[i] = blockBase[i] + postingTextLow[p + 1];
        else settle(i);
        most += contribution(idf[term[i]], tf[i], k1, norm) * repeats[i];
      } else tf[i] = 0;
    }
    let i = essential - 1;
    for (; i >= 0 && most * SLACK >= threshold; i--) {
      // Gallop to the first posting at or after `text`: straight to the start of its block (every posting before
      // it is of a smaller text), then along the low bits within that block.
      if (current[i] < text) {
        const target = Math.floor(text / BLOCK);
        let low = position[i];
        if (block[i] < target) {
          block[i] = target;
          low = blockStart[blocks[i] + target];
        }
        const last = blockStart[blocks[i] + target + 1];
        const bits = text & LOW;
        if (low < last && postingTextLow[low] < bits) {
          let step = 1;
          let high = low + 1;
          while (high < last && postingTextLow[high] < bits) {
            low = high;
            step *= 2;
            high = low + step;
          }
          if (high > last) high = last;
          low++;
          while (low < high) {
            const middle = (low + high) >>> 1;
            if (postingTextLow[middle] < bits) low = middle + 1;
            else high = middle;
          }
        }
        position[i] = low;
        settle(i);
      }
      if (current[i] === text) {
        tf[i] = frequencyAt(postingFrequency, frequencyOverflow, position[i]);
        most += contribution(idf[term[i]], tf[i], k1, norm) * repeats[i] - bound[i];
      } else {
        tf[i] = 0;
        most -= bound[i];
      }
    }
    if (i >= 0 || most * SLACK < threshold) continue;
    let score = 0;
    for (const at of sequence) if (tf[at] > 0) score += contribution(idf[term[at]], tf[at], k1, norm);
    if (best.length === k && !(score > threshold)) continue;
    keepBest(best, k, text, score);
    if (best.length === k) {
      threshold = best[k - 1].score;
      while (essential < m && prefix[essential] * SLACK < threshold) essential++;
    }
  }
  return best;
}

// The few most recent indexes, keyed by a hash of their texts, settings and vocabulary: configs whose chunks come
// out identical (an overlap the splitter could not use, two splitters agreeing, the same arm in two notebook cells)
// search one index instead of rebuilding it. An index is immutable once built, so sharing it is safe. Besides the
// newest, older ones are kept only while all of them together hold at most `keptPostings` postings, so a sweep
// over a large corpus holds one index at a time.
const recentIndexes: { key: string; index: Bm25Index }[] = [];
const keptIndexes = 4;
const keptPostings = 16_000_000;
let reusedIndexes = 0;

/** How many BM25 indexes were served from `sharedBm25Index`'s memo instead of being rebuilt (in this thread). */
export function bm25IndexReuses(): number {
  return reusedIndexes;
}

const postingsOf = (index: Bm25Index) => index.postingTextLow.length;

/** Chunks and the documents they are spans of (`Chunk.doc` ids). */
export interface ChunkSpans {
  chunks: readonly Chunk[];
  docs: readonly Doc[];
}

// Documents arrays are plain data that is never changed once made (as everywhere in seamlab): a serial number and
// the positions of their ids are kept per array, so that chunks which are all exact spans of one array's documents
// are named by their spans instead of by hashing every chunk's text again for every config.
const spanSources = new WeakMap<readonly Doc[], { serial: number; position: Map<string, number> }>();
let lastSerial = 0;

/** A name of the chunks' texts when every chunk is an exact span of one of `docs`, else null. */
function spansName({ chunks, docs }: ChunkSpans): string | null {
  let source = spanSources.get(docs);
  if (source === undefined) {
    source = { serial: ++lastSerial, position: new Map(docs.map((doc, i) => [doc.id, i])) };
    spanSources.set(docs, source);
  }
  const packed = new Int32Array(3 * chunks.length);
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    const at = source.position.get(chunk.doc);
    if (at === undefined || !isSpanOf(chunk, docs[at].text)) return null;
    packed[3 * i] = at;
    packed[3 * i + 1] = chunk.start;
    packed[3 * i + 2] = chunk.end;
  }
  return `spans of documents array #${source.serial}: ${createHash("sha256").update(packed).digest("hex")}`;
}

/**
 * `buildBm25Index`, or the index already built for the same texts, settings and scope. Given the `spans` the texts
 * come from (`texts[i]` = `spans.chunks[i].text`) and a vocabulary, a new index is built from the documents
 * (`buildBm25IndexOfChunks`: the same index).
 */
export function sharedBm25Index(
  texts: readonly string[],
  options: Bm25Options = {},
  scope: Bm25Scope = {},
  spans?: ChunkSpans,
): Bm25Index {
  const hash = createHash("sha256");
  const stopWords = options.stopWords ? [...options.stopWords].sort().join(" ") : "";
  const terms = scope.vocabulary ? [...scope.vocabulary].sort() : null;
  hash.update(
    JSON.stringify([options.k1 ?? 1.2, options.b ?? 0.75, options.idf ?? "lucene", !!options.stem, stopWords, terms]),
  );
  const named = spans && scope.vocabulary ? spansName(spans) : null;
  if (named !== null) hash.update(named);
  else for (const text of texts) hash.update(`${text.length}:`).update(text);
  const key = hash.digest("hex");
  const at = recentIndexes.findIndex((entry) => entry.key === key);
  if (at >= 0) {
    const [entry] = recentIndexes.splice(at, 1);
    recentIndexes.push(entry);
    reusedIndexes++;
    return entry.index;
  }
  // Drop what the budget cannot keep before building, so two large indexes are never alive at once.
  while (recentIndexes.length > 0 && recentIndexes.reduce((s, e) => s + postingsOf(e.index), 0) > keptPostings)
    recentIndexes.shift();
  const vocabulary = scope.vocabulary;
  const index =
    spans && vocabulary
      ? buildBm25IndexOfChunks(spans.chunks, sharedDocTermTable(spans.docs, vocabulary, options), options, {
          ...scope,
          vocabulary,
        })
      : buildBm25Index(texts, options, scope);
  recentIndexes.push({ key, index });
  while (
    recentIndexes.length > keptIndexes ||
    (recentIndexes.length > 1 && recentIndexes.reduce((s, e) => s + postingsOf(e.index), 0) > keptPostings)
  )
    recentIndexes.shift();
  return index;
}

/**
 * A `Retriever` over chunks (or raw texts) with BM25. Given `queries` (every query text it will be asked), the index
 * keeps postings for their terms only (same scores, see `Bm25Scope`), and any other query throws. Given as well the
 * `docs` the chunks are spans of, the chunks' terms are read from those documents, tokenized once for every index
 * built over the same documents array and queries (`buildBm25IndexOfChunks`; same index).
 */
export function createBm25Retriever(
  chunks: readonly (Chunk | string)[],
  options: Bm25Options = {},
  queries?: readonly string[],
  docs?: readonly Doc[],
): Retriever & { index: Bm25Index } {
  const texts = chunks.map((c) => (typeof c === "string" ? c : c.text));
  const vocabulary = queries ? queryVocabulary(queries, options) : undefined;
  const spans = docs && chunks.every((c) => typeof c !== "string") ? (chunks as readonly Chunk[]) : null;
  const index = sharedBm25Index(
    texts,
    options,
    vocabulary ? { vocabulary } : {},
    spans && docs ? { chunks: spans, docs } : undefined,
  );
  const scratch = bm25Scratch(index);
  const idfName = options.idf ?? "lucene";
  return {
    name: `bm25(k1=${index.k1},b=${index.b},idf=${idfName},tokens=${describeTokenizer(options)})`,
    index,
    search: (query: string, k: number) => searchBm25(index, query, k, scratch),
  };
}
