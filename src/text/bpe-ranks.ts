import { projectRequire } from "../core/project";

/**
 * An encoding's byte-pair ranks as typed arrays (each token's bytes, a hash table from bytes to rank), read from
 * js-tiktoken's rank file: 0.05 s per thread against its encoder's 0.3 s, which every sweep worker would pay again.
 */
export interface RankTable {
  /** The pre-tokenising regular expression's source. */
  patStr: string;
  /** Every token's bytes, by rank. */
  bytes: Uint8Array;
  /** Token r's bytes are bytes[start[r] .. start[r] + length[r]); start[r] = -1 where no token has rank r. */
  start: Int32Array;
  length: Int32Array;
  /** Ranks by hash of their bytes, linear probing; -1 = empty. Its length is a power of two. */
  slots: Int32Array;
}

/** js-tiktoken's rank file: one line per run of consecutive ranks. */
export interface PublishedRanks {
  pat_str: string;
  bpe_ranks: string;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const base64Values = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) base64Values[BASE64.charCodeAt(i)] = i;

function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/** Lines of `bpe_ranks` read `<text> <first rank> <base64 token>...`; bytes listed twice keep their last rank. */
export function rankTableOf(published: PublishedRanks): RankTable {
  const text = published.bpe_ranks;
  const pool = new Uint8Array(text.length); // base64 takes at least as many characters as the bytes it holds
  let poolEnd = 0;
  let start = new Int32Array(1 << 17).fill(-1);
  let length = new Int32Array(start.length);
  let maxRank = -1;
  let at = 0;
  while (at < text.length) {
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd < 0) lineEnd = text.length;
    const rankAt = text.indexOf(" ", at) + 1;
    let p = text.indexOf(" ", rankAt);
    if (rankAt <= 0 || p < 0 || p > lineEnd) {
      at = lineEnd + 1; // a blank line
      continue;
    }
    let rank = Number(text.slice(rankAt, p));
    p++;
    while (p < lineEnd) {
      let end = text.indexOf(" ", p);
      if (end < 0 || end > lineEnd) end = lineEnd;
      if (rank >= start.length) {
        const grown = new Int32Array(2 * rank).fill(-1);
        grown.set(start);
        start = grown;
        const grownLength = new Int32Array(2 * rank);
        grownLength.set(length);
        length = grownLength;
      }
      start[rank] = poolEnd;
      let bits = 0;
      let held = 0;
      for (let i = p; i < end; i++) {
        const code = text.charCodeAt(i);
        const value = code < 128 ? base64Values[code] : -1;
        if (value < 0) continue; // padding
        bits = ((bits << 6) | value) & 0xffffff;
        held += 6;
        if (held >= 8) {
          held -= 8;
          pool[poolEnd++] = (bits >> held) & 0xff;
        }
      }
      length[rank] = poolEnd - start[rank];
      if (rank > maxRank) maxRank = rank;
      rank++;
      p = end + 1;
    }
    at = lineEnd + 1;
  }
  const bytes = pool.slice(0, poolEnd);
  const size = 1 << Math.ceil(Math.log2(Math.max(2, 2 * (maxRank + 1))));
  const slots = new Int32Array(size).fill(-1);
  const table: RankTable = {
    patStr: published.pat_str,
    bytes,
    start: start.slice(0, maxRank + 1),
    length: length.slice(0, maxRank + 1),
    slots,
  };
  for (let r = 0; r <= maxRank; r++) {
    const from = table.start[r];
    if (from < 0) continue;
    const to = from + table.length[r];
    let h = hashBytes(bytes, from, to) & (size - 1);
    // The same bytes under an earlier rank: the later rank replaces it in the lookup.
    while (slots[h] >= 0 && !sameBytes(table, slots[h], bytes, from, to)) h = (h + 1) & (size - 1);
    slots[h] = r;
  }
  return table;
}

function sameBytes(table: RankTable, rank: number, bytes: Uint8Array, from: number, to: number): boolean {
  const length = table.length[rank];
  if (length !== to - from) return false;
  const start = table.start[rank];
  for (let i = 0; i < length; i++) if (table.bytes[start + i] !== bytes[from + i]) return false;
  return true;
}

/** The rank of the byte string bytes[from .. to), or -1 when it is not a token. */
export function rankOfBytes(table: RankTable, bytes: Uint8Array, from: number, to: number): number {
  const mask = table.slots.length - 1;
  for (let h = hashBytes(bytes, from, to) & mask; ; h = (h + 1) & mask) {
    const rank = table.slots[h];
    if (rank < 0) return -1;
    if (sameBytes(table, rank, bytes, from, to)) return rank;
  }
}

/** UTF-8 length of token `rank`'s bytes, or -1 when no token has that rank. */
export function tokenByteLength(table: RankTable, rank: number): number {
  return rank >= 0 && rank < table.start.length && table.start[rank] >= 0 ? table.length[rank] : -1;
}

const tables = new Map<string, RankTable>();

/** The table of a shipped encoding (the caller checks the name), built once per thread. */
export function loadRankTable(encoding: string): RankTable {
  if (!tables.has(encoding)) {
    const published = projectRequire()(`js-tiktoken/ranks/${encoding}`) as PublishedRanks & {
      default?: PublishedRanks;
    };
    tables.set(encoding, rankTableOf(published.default ?? published));
  }
  return tables.get(encoding)!;
}

/** js-tiktoken on first use: its entry holds every encoding's ranks (6 MB of source) a counting thread never needs. */
export const requireTiktoken = () => projectRequire()("js-tiktoken") as typeof import("js-tiktoken");
