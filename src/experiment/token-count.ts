import { countTokens, defaultEncoding, getEncoding } from "../text/tokens";

/**
 * Exact token counts for the cost model, fast enough to count every chunk of every config of a sweep.
 *
 * js-tiktoken's `encode` costs ~1.5 s per million characters here (it rebuilds its regexes on every call and
 * runs byte-pair merging with string keys on every piece). A count only needs the pre-tokenisation pieces
 * (the encoding's own regex) and, per distinct piece, its BPE token count, which is memoised: a corpus
 * repeats a few tens of thousands of pieces a million times. The result equals `countTokens(text)` (tested
 * against it on real documents); if js-tiktoken's internals ever change shape, it falls back to `countTokens`.
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
  if (typeof internals.patStr !== "string" || !(internals.rankMap instanceof Map)) {
    return (text) => countTokens(text, encoding);
  }
  const ranks = internals.rankMap;
  const pieces = new RegExp(internals.patStr, "ug");
  const encoder = new TextEncoder();
  const memo = new Map<string, number>();
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
