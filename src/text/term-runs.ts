// The runs seamlab indexes (BM25, near-duplicate sets, lsa): maximal runs of Unicode letters or digits of a lowercased
// text. Pure ASCII text (most chunks) takes /[a-z0-9]+/, which finds the very same runs there about twice as fast.

/** A term: a maximal run of letters or digits (global: copy it before `exec` loops of your own). */
export const TERM = /[\p{L}\p{N}]+/gu;
const ASCII_TERM = /[a-z0-9]+/g;
/** Holds a character outside ASCII. */
// eslint-disable-next-line no-control-regex
export const NOT_ASCII = /[^\u0000-\u007f]/;

/** The runs of `lower`, an already lowercased text, in order. */
export function lowerTermRuns(lower: string): string[] {
  return lower.match(NOT_ASCII.test(lower) ? TERM : ASCII_TERM) ?? [];
}
