import type { RankedChunk } from "./types";
import { BLOCK, LOW, contribution, frequencyAt, type Bm25Index } from "./bm25-index";
import { keepBest } from "./top-k";

/** A cursor past its last posting. */
const NONE = 0x7fffffff;

// Bounds are sums taken in another order than the scores: a relative slack far above rounding keeps pruning exact.
const SLACK = 1 + 1e-9;

/**
 * `searchBm25` by MaxScore (Turtle & Flood 1995): once k texts are held, the weakest terms whose bounds together stay
 * under the k-th score cannot lift a text alone, so only texts holding another ("essential") term are candidates,
 * and their weaker terms are looked up (galloping) only while the bound can still reach the k-th score. Candidates
 * are scored adding terms in query order, as the exhaustive search does, and come in index order: same results.
 */
export function searchBm25Pruned(index: Bm25Index, queryTerms: readonly number[], k: number): RankedChunk[] {
  if (k <= 0) return [];
  const { postingStart, postingTextLow, textBlocks, blockStart, postingFrequency, frequencyOverflow } = index;
  const { idf, lengthNorm, upperBound, k1 } = index;
  const repeatsOf = new Map<number, number>(); // distinct terms in first-occurrence order
  for (const t of queryTerms) repeatsOf.set(t, (repeatsOf.get(t) ?? 0) + 1);
  const boundOf = (t: number) => upperBound[t] * (repeatsOf.get(t) as number);
  const distinct = [...repeatsOf.keys()];
  const m = distinct.length;
  const order = distinct.map((_, slot) => slot).sort((a, b) => boundOf(distinct[a]) - boundOf(distinct[b]) || a - b);
  // Position i: the i-th weakest term. prefix[i] = the most terms 0..i can add together.
  const [term, repeats, position, end, tf] = Array.from({ length: 5 }, () => new Int32Array(m));
  // Per cursor: its text (NONE past the end), its block, where that block ends, and the term's `blockStart` row.
  const [current, block, blockEnd, blocks, blockBase] = Array.from({ length: 5 }, () => new Int32Array(m));
  const [bound, prefix] = [new Float64Array(m), new Float64Array(m)];
  const rank = new Map<number, number>();
  order.forEach((slot, i) => {
    term[i] = distinct[slot];
    repeats[i] = repeatsOf.get(term[i]) as number;
    position[i] = postingStart[term[i]];
    end[i] = postingStart[term[i] + 1];
    blocks[i] = term[i] * (textBlocks + 1);
    bound[i] = boundOf(term[i]);
    prefix[i] = (i === 0 ? 0 : prefix[i - 1]) + bound[i];
    rank.set(term[i], i);
  });
  // Cursor i now at `position[i]`: its block and text.
  const settle = (i: number) => {
    const p = position[i];
    if (p >= end[i]) {
      current[i] = NONE;
      return;
    }
    let j = block[i];
    while (p >= blockStart[blocks[i] + j + 1]) j++;
    block[i] = j;
    blockEnd[i] = blockStart[blocks[i] + j + 1];
    blockBase[i] = j * BLOCK;
    current[i] = blockBase[i] + postingTextLow[p];
  };
  for (let i = 0; i < m; i++) settle(i);
  const sequence = queryTerms.map((t) => rank.get(t) as number);
  const best: RankedChunk[] = [];
  let threshold = -Infinity;
  let essential = 0; // terms 0 .. essential-1 are not essential
  for (;;) {
    let text = NONE;
    for (let i = essential; i < m; i++) if (current[i] < text) text = current[i];
    if (text === NONE) break;
    const norm = lengthNorm[text];
    let most = essential === 0 ? 0 : prefix[essential - 1];
    for (let i = essential; i < m; i++) {
      if (current[i] === text) {
        const p = position[i];
        tf[i] = frequencyAt(postingFrequency, frequencyOverflow, p);
        position[i] = p + 1;
        if (p + 1 < blockEnd[i]) current[i] = blockBase[i] + postingTextLow[p + 1];
        else settle(i);
        most += contribution(idf[term[i]], tf[i], k1, norm) * repeats[i];
      } else tf[i] = 0;
    }
    let i = essential - 1;
    for (; i >= 0 && most * SLACK >= threshold; i--) {
      // Gallop to the first posting at or after `text`: jump to its block, then along the low bits within it.
      if (current[i] < text) {
        const target = Math.floor(text / BLOCK);
        let low = position[i];
        if (block[i] < target) {
          block[i] = target;
          low = blockStart[blocks[i] + target];
        }
        const last = blockStart[blocks[i] + target + 1];
        const bits = text & LOW;
        if (low < last && postingTextLow[low] < bits) {
          let step = 1;
          let high = low + 1;
          while (high < last && postingTextLow[high] < bits) {
            low = high;
            step *= 2;
            high = low + step;
          }
          if (high > last) high = last;
          low++;
          while (low < high) {
            const middle = (low + high) >>> 1;
            if (postingTextLow[middle] < bits) low = middle + 1;
            else high = middle;
          }
        }
        position[i] = low;
        settle(i);
      }
      if (current[i] === text) {
        tf[i] = frequencyAt(postingFrequency, frequencyOverflow, position[i]);
        most += contribution(idf[term[i]], tf[i], k1, norm) * repeats[i] - bound[i];
      } else {
        tf[i] = 0;
        most -= bound[i];
      }
    }
    if (i >= 0 || most * SLACK < threshold) continue;
    let score = 0;
    for (const at of sequence) if (tf[at] > 0) score += contribution(idf[term[at]], tf[at], k1, norm);
    if (best.length === k && !(score > threshold)) continue;
    keepBest(best, k, text, score);
    if (best.length === k) {
      threshold = best[k - 1].score;
      while (essential < m && prefix[essential] * SLACK < threshold) essential++;
    }
  }
  return best;
}
