// Placing given answer text in a document: every occurrence, the one nearest a given offset, whitespace trimmed.

/** The span without surrounding whitespace (a trailing space is not evidence). */
export function trimSpan(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return { start, end };
}

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
