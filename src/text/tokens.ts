/**
 * Token counting and token -> character offset mapping for js-tiktoken's encodings, on their rank tables
 * (text/bpe-ranks), equal to js-tiktoken's `encode`.
 *
 * Special-token strings such as "<|endoftext|>" are encoded as ordinary text (js-tiktoken would otherwise throw
 * on them): a corpus is data, and one stray marker in a document must not abort a sweep.
 */
import type { Tiktoken, TiktokenEncoding } from "js-tiktoken";
import { SeamlabError } from "../core/errors";
import { loadRankTable, rankOfBytes, requireTiktoken, tokenByteLength, type RankTable } from "./bpe-ranks";

/** Encodings js-tiktoken ships. */
export const encodingNames: string[] = ["cl100k_base", "o200k_base", "p50k_base", "p50k_edit", "r50k_base", "gpt2"];

export const defaultEncoding = "cl100k_base";

const encodingCache = new Map<string, Tiktoken>();

/** Throws a SeamlabError naming `encoding` when `name` is not an encoding js-tiktoken ships. */
export function checkEncodingName(name: string): void {
  if (encodingNames.indexOf(name) < 0) {
    throw new SeamlabError(`unknown --encoding "${name}": use one of ${encodingNames.join(", ")}`);
  }
}

/**
 * The js-tiktoken encoder for `name`, loaded once per name (loading cl100k_base takes ~0.3 s of CPU). Counting,
 * encoding and offsets read the encoding's rank table (`rankTable`) instead, and fall back to this encoder only for
 * a text whose pieces the table cannot merge alone.
 */
export function getEncoding(name: string = defaultEncoding): Tiktoken {
  checkEncodingName(name);
  let encoding = encodingCache.get(name);
  if (!encoding) {
    encoding = requireTiktoken().getEncoding(name as TiktokenEncoding);
    encodingCache.set(name, encoding);
  }
  return encoding;
}

/** The names of the js-tiktoken encoders this thread has built (`getEncoding`), in the order it built them. */
export function loadedEncoders(): string[] {
  return [...encodingCache.keys()];
}

/** The byte-pair rank table of `encoding` (text/bpe-ranks), built once per thread. */
export function rankTable(encoding: string = defaultEncoding): RankTable {
  checkEncodingName(encoding);
  return loadRankTable(encoding);
}

/**
 * Memoised tokens per regex piece, per encoding. js-tiktoken encodes a text as the concatenation of the BPE of
 * each match of its pre-tokenising regex (special tokens aside, which we treat as text), and prose repeats its
 * pieces (words with their leading space) constantly: caching them makes encoding several times faster.
 * The cache is cleared when it grows past `pieceCacheLimit` entries, so memory stays bounded.
 */
const pieceCaches = new Map<string, Map<string, number[]>>();
const pieceCacheLimit = 200_000;

/** Token ids of `text`, special-token strings encoded as plain text. Equal to js-tiktoken's `encode(text, [], [])`. */
export function encodeTokens(text: string, encoding: string = defaultEncoding): number[] {
  const table = rankTable(encoding);
  const regex = new RegExp(table.patStr, "ug");
  let cache = pieceCaches.get(encoding);
  if (!cache) {
    cache = new Map();
    pieceCaches.set(encoding, cache);
  }
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
      tokens = bytePairTokens(pieceEncoder.encode(piece), table);
      if (cache.size >= pieceCacheLimit) cache.clear();
      cache.set(piece, tokens);
    }
    for (let i = 0; i < tokens.length; i++) out.push(tokens[i]);
  }
  return out;
}

/** Number of tokens in `text` (special-token strings counted as plain text); see `tokenCounter`. */
export function countTokens(text: string, encoding: string = defaultEncoding): number {
  if (text.length === 0) return 0;
  return tokenCounter(encoding)(text);
}

/*
 * Exact token counts, fast enough to count every chunk of every config of a sweep: a count only needs the
 * pre-tokenisation pieces (the encoding's own regex) and, per distinct piece, its token count, which is memoised
 * (a corpus repeats a few tens of thousands of pieces a million times). Equal to js-tiktoken's count (tested
 * against `encode`).
 */
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
  const table = rankTable(encoding);
  const pieces = new RegExp(table.patStr, "ug");
  const encoder = new TextEncoder();
  const memo = new Map<string, number>();
  // Byte-pair merging straight on the rank table: about ten times cheaper per new piece than a call to
  // encode(), which compiles its regexes on every call. New pieces are common: a character window cuts
  // words in two at both ends of every chunk.
  const pieceCount = (piece: string): number => {
    const bytes = encoder.encode(piece);
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

const pieceEncoder = new TextEncoder();

/**
 * The tokens of one pre-tokenisation piece given as its UTF-8 bytes, as js-tiktoken's `encode` gives them for a text
 * that is this one piece: the piece's own rank when it is a token, else the ranks of the parts byte-pair merging
 * leaves (parts without a rank dropped, as js-tiktoken drops them). About a hundred times cheaper than a call to
 * `encode`, which compiles two regular expressions and slices the piece once per candidate pair.
 */
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
 * Where the parts byte-pair merging leaves of `bytes` start, and the end: part i is bytes[bounds[i] .. bounds[i + 1]).
 * Repeatedly merge the adjacent pair whose joined bytes have the lowest rank, until no adjacent pair is a token
 * (tiktoken's algorithm; ties go left). Pair ranks are recomputed only next to a merge.
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
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i < pairRanks.length; i++) {
      if (pairRanks[i] < bestRank) {
        bestRank = pairRanks[i];
        best = i;
      }
    }
    if (best < 0) break;
    bounds.splice(best + 1, 1);
    pairRanks.splice(best, 1);
    if (best < pairRanks.length) pairRanks[best] = pairRank(best);
    if (best > 0) pairRanks[best - 1] = pairRank(best - 1);
  }
  return bounds;
}

/** A length function for `unit` ("chars" counts UTF-16 code units, like JS `length` and LangChain JS). */
export function lengthFunctionFor(
  unit: "chars" | "tokens",
  encoding: string = defaultEncoding,
): (text: string) => number {
  if (unit === "chars") return (text) => text.length;
  rankTable(encoding);
  return (text) => countTokens(text, encoding);
}

/** UTF-8 byte length of each token, from the encoding's rank table. */
function tokenByteLengths(table: RankTable, tokens: number[]): number[] {
  const lengths = new Array<number>(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const length = tokenByteLength(table, tokens[i]);
    if (length < 0) throw new Error(`token ${tokens[i]} is not in the rank table`);
    lengths[i] = length;
  }
  return lengths;
}

/** UTF-8 byte length of the code point whose first UTF-16 unit is at `text[i]` (and its UTF-16 width). */
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
 * Token ids of `text` with the UTF-16 span each token covers: token t covers `[starts[t], ends[t])`.
 *
 * A token may begin or end inside a multi-byte character (cl100k splits some emoji and CJK characters into
 * several byte-level tokens). Spans are widened to whole characters: a start inside a character moves back to
 * the character's start, an end inside one moves forward to its end. So every offset is a valid string
 * position, `starts` and `ends` are non-decreasing, and tokens sharing a character have overlapping spans.
 * For text whose token boundaries all fall between characters (all ASCII, for example), `ends[t] === starts[t+1]`.
 */
export function tokenOffsets(
  text: string,
  encoding: string = defaultEncoding,
): { tokens: number[]; starts: Int32Array; ends: Int32Array } {
  const tokens = encodeTokens(text, encoding);
  const byteLengths = tokenByteLengths(rankTable(encoding), tokens);
  // Typed arrays: a 50 MB document has ~12 M tokens, and plain arrays of numbers would take twice the memory.
  const starts = new Int32Array(tokens.length);
  const ends = new Int32Array(tokens.length);
  let unit = 0; // UTF-16 offset of the character that contains byte offset `target`
  let charByteStart = 0; // byte offset where that character starts
  let charBytes = unit < text.length ? utf8Width(text, 0)[0] : 0;
  let charUnits = unit < text.length ? utf8Width(text, 0)[1] : 0;
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
    byte += byteLengths[t];
    advanceTo(byte);
    ends[t] = charByteStart === byte || unit >= text.length ? unit : unit + charUnits;
  }
  return { tokens, starts, ends };
}
