import type { Doc } from "../core/types";
import { straddlingPairs, type StraddlingPair } from "../measure/pairs";
import { documentPieces, type DocPieces } from "./token-count";

// What every config of a sweep needs of the documents alone, whatever the splitter: the sentence pairs straddling
// paragraph breaks (seam damage) and each document's token pieces (embedded tokens). A worker thread used to build
// both for the whole corpus before its first row, so with two threads the corpus was read twice over (about a
// second of CPU each on opentelemetry-docs). Instead each thread builds them for a share of the documents, the
// shares are merged into SharedArrayBuffers, and every thread reads the merged arrays without copying them.

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
}

/** Pairs and token pieces of the documents [from, to). */
export function computeDocSetupPart(docs: readonly Doc[], from: number, to: number): DocSetupPart {
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
  return { from, to, pairs, pieceCounts, ends, cumulative };
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
  return { docCount, pairs, pieceStart, ends, cumulative };
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
