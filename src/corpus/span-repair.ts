// Placing given answer text in a document: every occurrence, the one nearest a given offset (text/words.trimSpan
// trims the whitespace around it).

/** All start offsets of `needle` in `text`. */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** The candidate offset closest to `target` (the first one on a tie). */
export function nearest(candidates: number[], target: number): number {
  let best = candidates[0];
  for (const c of candidates) if (Math.abs(c - target) < Math.abs(best - target)) best = c;
  return best;
}
