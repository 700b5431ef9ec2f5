import type { Chunk, Doc } from "../core/types";
import { countTokens, defaultEncoding, getEncoding } from "../text/tokens";

/**
 * Exact token counts for the cost model, fast enough to count every chunk of every config of a sweep.
 *
 * A count only needs the pre-tokenisation pieces (the encoding's own regex) and, per distinct piece, its
 * token count, which is memoised: a corpus repeats a few tens of thousands of pieces a million times.
 * The result equals js-tiktoken's count (tested against it); if js-tiktoken's internals (its regex source and
 * rank table) ever change shape, it falls back to `countTokens`.
 */
interface TiktokenInternals {
  patStr?: string;
  rankMap?: Map<string, number>;
}

export type TokenCounter = (text: string) => number;

const counters = new Map<string, TokenCounter>();

/** A memoised exact counter for `encoding` (one per encoding per thread). */
export function tokenCounter(encoding: string = defaultEncoding): TokenCounter {
  let counter = counters.get(encoding);
  if (!counter) {
    counter = buildCounter(encoding);
    counters.set(encoding, counter);
  }
  return counter;
}

function buildCounter(encoding: string): TokenCounter {
  const internals = getEncoding(encoding) as unknown as TiktokenInternals;
  if (typeof internals.patStr !== "string" || !(internals.rankMap instanceof Map)) return (text) => countTokens(text, encoding);
  const ranks = internals.rankMap;
  const pieces = new RegExp(internals.patStr, "ug");
  const encoder = new TextEncoder();
  const memo = new Map<string, number>();
  // Byte-pair merging straight on js-tiktoken's rank table: about ten times cheaper per new piece than a call
  // to encode(), which compiles its regexes on every call. New pieces are common: a character window cuts
  // words in two at both ends of every chunk.
  const pieceCount = (piece: string): number => {
    const bytes = encoder.encode(piece);
    if (bytes.length <= 1 || ranks.has(bytes.join(","))) return 1;
    return bytePairCount(bytes, ranks);
  };
  return (text) => {
    let total = 0;
    pieces.lastIndex = 0;
    for (let match = pieces.exec(text); match !== null; match = pieces.exec(text)) {
      const piece = match[0];
      let count = memo.get(piece);
      if (count === undefined) {
        count = pieceCount(piece);
        memo.set(piece, count);
      }
      total += count;
    }
    return total;
  };
}

/**
 * Number of tokens byte-pair merging leaves in `bytes`: repeatedly merge the adjacent pair whose joined
 * bytes have the lowest rank, until no adjacent pair is a token (tiktoken's algorithm; ties go left).
 * Parts are kept as their rank-map keys ("104,105") and pair ranks are recomputed only next to a merge.
 */
function bytePairCount(bytes: Uint8Array, ranks: Map<string, number>): number {
  const parts: string[] = Array.from(bytes, (b) => String(b));
  const pairRank = (i: number) => ranks.get(parts[i] + "," + parts[i + 1]) ?? Infinity;
  const pairRanks: number[] = [];
  for (let i = 0; i + 1 < parts.length; i++) pairRanks.push(pairRank(i));
  while (parts.length > 1) {
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i < pairRanks.length; i++) {
      if (pairRanks[i] < bestRank) {
        bestRank = pairRanks[i];
        best = i;
      }
    }
    if (best < 0) break;
    parts.splice(best, 2, parts[best] + "," + parts[best + 1]);
    pairRanks.splice(best, 1);
    if (best < pairRanks.length) pairRanks[best] = pairRank(best);
    if (best > 0) pairRanks[best - 1] = pairRank(best - 1);
  }
  return parts.length;
}

interface DocPieces {
  /** End offset of every pre-tokenisation piece of the document, ascending. */
  ends: Int32Array;
  /** cumulative[i] = tokens in pieces 0..i-1 (cumulative[0] = 0). */
  cumulative: Float64Array;
}

/**
 * Counts the tokens of many chunks of the same documents without re-reading their text: each document is
 * pre-tokenised once into pieces with running token totals; a chunk that is a verbatim slice of its
 * document costs only its first and last few pieces. Between those, the chunk's own pieces are the
 * document's: the pre-tokenisation regex is applied left to right, so once a chunk piece ends on a document
 * piece boundary the two agree, as long as no match looks past the chunk's end (hence the margin of one
 * whole piece before the end, which is re-tokenised from the chunk text itself). Chunks that are not
 * verbatim slices (e.g. a prefixed tail chunk) are counted from their text. Tested equal to js-tiktoken on
 * every chunk of several splitters over a real corpus.
 */
export function chunkTokenCounter(docs: readonly Doc[], encoding: string = defaultEncoding): (chunk: Chunk) => number {
  const count = tokenCounter(encoding);
  const internals = getEncoding(encoding) as unknown as TiktokenInternals;
  if (typeof internals.patStr !== "string") return (chunk) => count(chunk.text);
  const regex = new RegExp(internals.patStr, "ug");
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  const piecesById = new Map<string, DocPieces>();
  const piecesOf = (doc: Doc): DocPieces => {
    let pieces = piecesById.get(doc.id);
    if (!pieces) {
      const ends: number[] = [];
      const cumulative: number[] = [0];
      regex.lastIndex = 0;
      for (let m = regex.exec(doc.text); m !== null; m = regex.exec(doc.text)) {
        ends.push(m.index + m[0].length);
        cumulative.push(cumulative[cumulative.length - 1] + count(m[0]));
      }
      pieces = { ends: Int32Array.from(ends), cumulative: Float64Array.from(cumulative) };
      piecesById.set(doc.id, pieces);
    }
    return pieces;
  };
  return (chunk) => {
    const doc = byId.get(chunk.doc);
    const length = chunk.end - chunk.start;
    if (!doc || chunk.text.length !== length || !doc.text.startsWith(chunk.text, chunk.start)) return count(chunk.text);
    const { ends, cumulative } = piecesOf(doc);
    const text = chunk.text;
    // The last document boundary that is followed by a whole piece ending before the chunk's last char.
    const last = lastIndexBelow(ends, chunk.end - 1); // ends[last] < end - 1
    const tailFrom = last >= 1 ? ends[last - 1] : -1; // ends[last - 1] is followed by piece `last`, inside the chunk
    let total = 0;
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      total += count(m[0]);
      const absoluteEnd = chunk.start + m.index + m[0].length;
      if (absoluteEnd >= tailFrom || tailFrom < 0) continue;
      const at = indexOf(ends, absoluteEnd);
      if (at < 0) continue;
      // Resynchronised at document piece `at`: take the document's pieces up to tailFrom, then finish from the text.
      const tailIndex = last - 1;
      total += cumulative[tailIndex + 1] - cumulative[at + 1];
      regex.lastIndex = tailFrom - chunk.start;
      for (let t = regex.exec(text); t !== null; t = regex.exec(text)) total += count(t[0]);
      return total;
    }
    return total;
  };
}

/** Largest i with sorted[i] < value, or -1. */
function lastIndexBelow(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Index of value in ascending `sorted`, or -1. */
function indexOf(sorted: Int32Array, value: number): number {
  const i = lastIndexBelow(sorted, value + 1);
  return i >= 0 && sorted[i] === value ? i : -1;
}
