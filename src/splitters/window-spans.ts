/**
 * The window arithmetic shared by the character and token windows (its own module so that `window` and
 * `tokens` do not import each other: tslab 1.0.22 cannot load an import cycle).
 */
/** `[start, end)` windows over `length` units with the given size and step; the last one ends at `length`. */
export function windowSpans(length: number, size: number, overlap: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (length === 0) return spans;
  const step = size - overlap;
  for (let start = 0; ; start += step) {
    const end = Math.min(start + size, length);
    spans.push([start, end]);
    if (end === length) break;
  }
  return spans;
}
