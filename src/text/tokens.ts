// Token counts and token -> character offsets for js-tiktoken's encodings, on their rank tables, equal to its
// `encode`. Special-token strings ("<|endoftext|>") are plain text: one stray marker must not abort a sweep.
import type { Tiktoken, TiktokenEncoding } from "js-tiktoken";
import { SeamlabError } from "../core/errors";
import { loadRankTable, rankOfBytes, requireTiktoken, tokenByteLength, type RankTable } from "./bpe-ranks";

export const encodingNames: string[] = ["cl100k_base", "o200k_base", "p50k_base", "p50k_edit", "r50k_base", "gpt2"];

export const defaultEncoding = "cl100k_base";

const encodingCache = new Map<string, Tiktoken>();
const utf8 = new TextEncoder();

export function checkEncodingName(name: string): void {
  if (!encodingNames.includes(name))
    throw new SeamlabError(`unknown --encoding "${name}": use one of ${encodingNames.join(", ")}`);
}

/** js-tiktoken's encoder (~0.3 s of CPU to load): the rank table serves everything else, this only as a fallback. */
export function getEncoding(name: string = defaultEncoding): Tiktoken {
  checkEncodingName(name);
  if (!encodingCache.has(name)) encodingCache.set(name, requireTiktoken().getEncoding(name as TiktokenEncoding));
  return encodingCache.get(name)!;
}

export function rankTable(encoding: string = defaultEncoding): RankTable {
  checkEncodingName(encoding);
  return loadRankTable(encoding);
}

// Tokens per piece of the pre-tokenising regex, per encoding: a text's tokens are its pieces' BPE, and prose repeats
// its pieces constantly (several times faster). Cleared past `pieceCacheLimit` entries to bound memory.
const pieceCaches = new Map<string, Map<string, number[]>>();
const pieceCacheLimit = 200_000;

/** Token ids of `text`, special-token strings encoded as plain text. Equal to js-tiktoken's `encode(text, [], [])`. */
export function encodeTokens(text: string, encoding: string = defaultEncoding): number[] {
  const table = rankTable(encoding);
  const regex = new RegExp(table.patStr, "ug");
  if (!pieceCaches.has(encoding)) pieceCaches.set(encoding, new Map());
  const cache = pieceCaches.get(encoding)!;
  const check = new RegExp(regex.source, "uy");
  const out: number[] = [];
  for (const match of text.matchAll(regex)) {
    const piece = match[0];
    let tokens = cache.get(piece);
    if (!tokens) {
      // encode(piece) is the piece's BPE only if the regex, run on the piece alone, matches it whole.
      check.lastIndex = 0;
      const alone = check.exec(piece);
      if (!alone || alone[0] !== piece) return getEncoding(encoding).encode(text, [], []);
      tokens = bytePairTokens(utf8.encode(piece), table);
      if (cache.size >= pieceCacheLimit) cache.clear();
      cache.set(piece, tokens);
    }
    for (let i = 0; i < tokens.length; i++) out.push(tokens[i]);
  }
  return out;
}

export function countTokens(text: string, encoding: string = defaultEncoding): number {
  return text.length === 0 ? 0 : tokenCounter(encoding)(text);
}

const counters = new Map<string, (text: string) => number>();

/** Exact counts for every chunk of a sweep: per distinct piece, its count is memoised (pieces repeat a million times). */
export function tokenCounter(encoding: string = defaultEncoding): (text: string) => number {
  if (!counters.has(encoding)) counters.set(encoding, buildCounter(encoding));
  return counters.get(encoding)!;
}

function buildCounter(encoding: string): (text: string) => number {
  const table = rankTable(encoding);
  const pieces = new RegExp(table.patStr, "ug");
  const memo = new Map<string, number>();
  // Merging on the rank table is ~10x cheaper than encode() per new piece; windows cut words, so new pieces are common.
  const pieceCount = (piece: string): number => {
    const bytes = utf8.encode(piece);
    if (bytes.length <= 1 || rankOfBytes(table, bytes, 0, bytes.length) >= 0) return 1;
    return bytePairBounds(bytes, table).length - 1;
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

/** One piece's tokens as `encode` gives them (parts without a rank dropped, as js-tiktoken does), ~100x cheaper. */
function bytePairTokens(bytes: Uint8Array, table: RankTable): number[] {
  const whole = rankOfBytes(table, bytes, 0, bytes.length);
  if (whole >= 0) return [whole];
  const bounds = bytePairBounds(bytes, table);
  const tokens: number[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const rank = rankOfBytes(table, bytes, bounds[i], bounds[i + 1]);
    if (rank >= 0) tokens.push(rank);
  }
  return tokens;
}

/**
 * The bounds of the parts byte-pair merging leaves of `bytes` (tiktoken's algorithm: merge the lowest-ranked adjacent
 * pair until none is a token, ties left); pair ranks are recomputed only next to a merge.
 */
function bytePairBounds(bytes: Uint8Array, table: RankTable): number[] {
  const bounds: number[] = Array.from({ length: bytes.length + 1 }, (_, i) => i);
  const pairRank = (i: number) => {
    const rank = rankOfBytes(table, bytes, bounds[i], bounds[i + 2]);
    return rank < 0 ? Infinity : rank;
  };
  const pairRanks: number[] = [];
  for (let i = 0; i + 2 < bounds.length; i++) pairRanks.push(pairRank(i));
  while (bounds.length > 2) {
    let best = 0;
    for (let i = 1; i < pairRanks.length; i++) if (pairRanks[i] < pairRanks[best]) best = i;
    if (pairRanks[best] === Infinity) break;
    bounds.splice(best + 1, 1);
    pairRanks.splice(best, 1);
    if (best < pairRanks.length) pairRanks[best] = pairRank(best);
    if (best > 0) pairRanks[best - 1] = pairRank(best - 1);
  }
  return bounds;
}

/** A length function for `unit` ("chars" counts UTF-16 code units, like JS `length` and LangChain JS). */
export function lengthFunctionFor(unit: "chars" | "tokens", encoding: string = defaultEncoding) {
  if (unit === "chars") return (text: string) => text.length;
  rankTable(encoding);
  return (text: string) => countTokens(text, encoding);
}

/** UTF-8 byte length and UTF-16 width of the code point at `text[i]`. */
function utf8Width(text: string, i: number): [bytes: number, units: number] {
  const c = text.charCodeAt(i);
  if (c < 0x80) return [1, 1];
  if (c < 0x800) return [2, 1];
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return [4, 2];
  }
  return [3, 1]; // BMP char, or a lone surrogate (TextEncoder writes U+FFFD: 3 bytes)
}

/**
 * Token ids of `text` with the UTF-16 span `[starts[t], ends[t])` of each. A token inside a multi-byte character
 * (cl100k splits some emoji and CJK) is widened to whole characters, so tokens sharing one have overlapping spans.
 */
export function tokenOffsets(text: string, encoding: string = defaultEncoding) {
  const tokens = encodeTokens(text, encoding);
  const table = rankTable(encoding);
  // a 50 MB document has ~12 M tokens: typed arrays take half the memory
  const starts = new Int32Array(tokens.length);
  const ends = new Int32Array(tokens.length);
  let unit = 0; // UTF-16 offset of the character that contains byte offset `target`
  let charByteStart = 0; // byte offset where that character starts
  let [charBytes, charUnits] = text.length > 0 ? utf8Width(text, 0) : [0, 0];
  const advanceTo = (target: number) => {
    while (unit < text.length && charByteStart + charBytes <= target) {
      charByteStart += charBytes;
      unit += charUnits;
      if (unit < text.length) [charBytes, charUnits] = utf8Width(text, unit);
    }
  };
  let byte = 0;
  for (let t = 0; t < tokens.length; t++) {
    advanceTo(byte);
    starts[t] = unit;
    const length = tokenByteLength(table, tokens[t]);
    if (length < 0) throw new Error(`token ${tokens[t]} is not in the rank table`);
    byte += length;
    advanceTo(byte);
    ends[t] = charByteStart === byte || unit >= text.length ? unit : unit + charUnits;
  }
  return { tokens, starts, ends };
}
