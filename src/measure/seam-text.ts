export type SeamText = ReturnType<typeof seamText>;

/**
 * The text around one seam: what both chunks hold, what neither holds between them, and `chars` either side. The
 * region is [min, max) of `prevEnd` and `nextStart`: shared text, or a gap.
 */
export function seamText(text: string, prevEnd: number, nextStart: number, chars: number) {
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
