import type { RankedChunk } from "./types";

const before = (score: number, index: number, other: RankedChunk) =>
  score > other.score || (score === other.score && index < other.index);

/**
 * Puts (index, score) into `best`, the sorted k best so far (score descending, then index ascending), if it ranks
 * there: one top-k order for every retriever. Most candidates fail the first test, so k stays cheap.
 */
export function keepBest(best: RankedChunk[], k: number, index: number, score: number): void {
  if (best.length === k && !before(score, index, best[k - 1])) return;
  let at = best.length === k ? k - 1 : best.length;
  if (best.length < k) best.push({ index, score });
  while (at > 0 && before(score, index, best[at - 1])) {
    best[at] = best[at - 1];
    at--;
  }
  best[at] = { index, score };
}
