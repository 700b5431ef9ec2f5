/**
 * Word-boundary snapping. A "word" here is a maximal run of non-whitespace (JS `\s` whitespace, the set
 * `String.prototype.trim` removes), so URLs and code identifiers count as one word. A position `p` is a word
 * boundary unless both `text[p-1]` and `text[p]` are non-whitespace.
 */
import { isWhitespaceCode } from "./whitespace";

/** True when `p` (0..text.length) does not cut a word in two. */
export function isWordBoundary(text: string, p: number): boolean {
  if (p <= 0 || p >= text.length) return true;
  return isWhitespaceCode(text.charCodeAt(p - 1)) || isWhitespaceCode(text.charCodeAt(p));
}

/**
 * The nearest word boundary at or before `p`, looking back at most `maxMove` units (so a 50 MB run without
 * whitespace costs O(maxMove) per call, not O(n)). Returns `p` itself when no boundary is that close.
 */
export function snapBackToBoundary(text: string, p: number, maxMove: number = Infinity): number {
  const limit = Math.max(0, p - maxMove);
  let q = p;
  while (q > limit && !isWordBoundary(text, q)) q--;
  return isWordBoundary(text, q) ? q : p;
}

/**
 * The first word start at or after `p` and before `limit` (a position whose character is non-whitespace and
 * whose predecessor is whitespace or the text start). Returns `limit` when there is none.
 */
export function nextWordStart(text: string, p: number, limit: number = text.length): number {
  let q = p;
  if (q > 0 && q < limit && !isWhitespaceCode(text.charCodeAt(q - 1))) {
    while (q < limit && !isWhitespaceCode(text.charCodeAt(q))) q++; // finish the word p cuts
  }
  while (q < limit && isWhitespaceCode(text.charCodeAt(q))) q++;
  return q;
}

/** `[start, end)` shrunk to exclude leading and trailing whitespace (empty when all whitespace: start = end). */
export function trimSpan(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && isWhitespaceCode(text.charCodeAt(s))) s++;
  while (e > s && isWhitespaceCode(text.charCodeAt(e - 1))) e--;
  return [s, e];
}
