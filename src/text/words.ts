// A word is a maximal run of non-whitespace (what `trim` removes), so URLs and identifiers are one word.
import { isWhitespaceCode } from "./whitespace";

/** True when `p` (0..text.length) does not cut a word in two. */
export function isWordBoundary(text: string, p: number): boolean {
  if (p <= 0 || p >= text.length) return true;
  return isWhitespaceCode(text.charCodeAt(p - 1)) || isWhitespaceCode(text.charCodeAt(p));
}

/** The nearest word boundary at or before `p` within `maxMove` units (else `p`): a 50 MB word costs O(maxMove). */
export function snapBackToBoundary(text: string, p: number, maxMove: number = Infinity): number {
  const limit = Math.max(0, p - maxMove);
  let q = p;
  while (q > limit && !isWordBoundary(text, q)) q--;
  return isWordBoundary(text, q) ? q : p;
}

/** The first word start at or after `p` and before `limit` (else `limit`). */
export function nextWordStart(text: string, p: number, limit: number = text.length): number {
  let q = p;
  if (q > 0 && q < limit && !isWhitespaceCode(text.charCodeAt(q - 1))) {
    while (q < limit && !isWhitespaceCode(text.charCodeAt(q))) q++; // finish the word p cuts
  }
  while (q < limit && isWhitespaceCode(text.charCodeAt(q))) q++;
  return q;
}

/** `[start, end)` without leading and trailing whitespace (start = end when all whitespace). */
export function trimSpan(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && isWhitespaceCode(text.charCodeAt(s))) s++;
  while (e > s && isWhitespaceCode(text.charCodeAt(e - 1))) e--;
  return [s, e];
}
