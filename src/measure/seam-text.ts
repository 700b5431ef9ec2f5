/**
 * The text around one seam, from the document's text and the two chunks' spans: what both chunks hold (`shared`),
 * what neither holds between them (`between`), and up to `chars` characters either side of that region, so a reader
 * sees what the cut separated. Exact slices of the source, no search.
 */
export interface SeamText {
  /** up to `chars` characters before the seam region */
  before: string;
  /** text both chunks cover ("" when they share nothing) */
  shared: string;
  /** text neither chunk covers between them ("" when they meet or overlap) */
  between: string;
  /** up to `chars` characters after the seam region */
  after: string;
}

/**
 * The seam between a chunk ending at `prevEnd` and the next starting at `nextStart`. The region is
 * [min, max) of the two: shared text when the next chunk starts before the previous ends, a gap otherwise.
 */
export function seamText(text: string, prevEnd: number, nextStart: number, chars: number): SeamText {
  const lo = Math.max(0, Math.min(prevEnd, nextStart, text.length));
  const hi = Math.min(text.length, Math.max(prevEnd, nextStart, lo));
  const region = text.slice(lo, hi);
  return {
    before: text.slice(Math.max(0, lo - chars), lo),
    shared: nextStart < prevEnd ? region : "",
    between: nextStart > prevEnd ? region : "",
    after: text.slice(hi, hi + chars),
  };
}
