import type { Chunk, Doc } from "../core/types";
import { partitionPoint } from "../core/sorted";
import { paragraphRegions, type TextRegion } from "../text/paragraphs";
import { firstSentence, lastSentence, SEGMENT_WINDOW, sentenceRegions } from "../text/sentences";
import { chunksByDoc, spansByStart } from "./chunks-by-doc";
import { percent } from "../stats/proportion";

/** The last sentence of one paragraph and the first of the next: the text a paragraph break cuts. */
export interface StraddlingPair {
  doc: string;
  /** From the start of the first sentence to the end of the second. */
  start: number;
  end: number;
}

export interface SeamDamage {
  pairs: number;
  /** Pairs that sit together inside at least one chunk span. */
  kept: number;
  keptPct: number;
  split: number;
}

/** Every sentence pair straddling a paragraph break, in corpus order. Linear in the corpus. */
export function straddlingPairs(docs: readonly Doc[]): StraddlingPair[] {
  const pairs: StraddlingPair[] = [];
  for (const doc of docs) {
    let previous: TextRegion | undefined;
    for (const paragraph of paragraphRegions(doc.text)) {
      // A paragraph that fits one segmentation window is segmented once for both ends (what firstSentence and
      // lastSentence would each do); a longer one is probed from each end instead of segmented whole.
      const short = paragraph.end - paragraph.start <= SEGMENT_WINDOW;
      const sentences = short ? sentenceRegions(doc.text, paragraph.start, paragraph.end) : undefined;
      const first = sentences ? sentences[0] : firstSentence(doc.text, paragraph.start, paragraph.end);
      if (previous && first) pairs.push({ doc: doc.id, start: previous.start, end: first.end });
      previous = sentences ? sentences[sentences.length - 1] : lastSentence(doc.text, paragraph.start, paragraph.end);
    }
  }
  return pairs;
}

/**
 * Seam damage: the share of straddling sentence pairs that land together in at least one chunk.
 * Per doc, chunks sorted by start with a running max of ends answer "does any chunk starting at or
 * before the pair reach past its end?" by binary search: n log n.
 */
export function measureSeamDamage(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  pairs = straddlingPairs(docs),
): SeamDamage {
  return totalSeamDamage(seamDamageByDoc(docs, chunks, pairs));
}

/** Seam damage from the count of straddling pairs and of those kept together. */
export function seamDamageFromCounts(kept: number, pairs: number): SeamDamage {
  return { pairs, kept, keptPct: percent(kept, pairs), split: pairs - kept };
}

/** Seam damage of per-document counts (see `seamDamageByDoc`), summed over the documents. */
export function totalSeamDamage(byDoc: { pairs: readonly number[]; kept: readonly number[] }): SeamDamage {
  const kept = byDoc.kept.reduce((s, k) => s + k, 0);
  const pairs = byDoc.pairs.reduce((s, k) => s + k, 0);
  return seamDamageFromCounts(kept, pairs);
}

/**
 * Seam damage counted per document (aligned with `docs`): straddling pairs and pairs kept together. The
 * per-document counts are what a cluster bootstrap over documents resamples.
 */
export function seamDamageByDoc(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  pairs = straddlingPairs(docs),
): { pairs: number[]; kept: number[] } {
  const byDoc = chunksByDoc(docs, chunks);
  const reachByDoc = new Map<string, { starts: number[]; maxEnds: number[] }>();
  for (const [doc, list] of byDoc) {
    const sorted = spansByStart(list);
    const starts = sorted.map((chunk) => chunk.start);
    const maxEnds: number[] = [];
    let reach = -Infinity;
    for (const chunk of sorted) maxEnds.push((reach = Math.max(reach, chunk.end)));
    reachByDoc.set(doc, { starts, maxEnds });
  }
  const position = new Map(docs.map((doc, i) => [doc.id, i]));
  const pairCounts = new Array<number>(docs.length).fill(0);
  const kept = new Array<number>(docs.length).fill(0);
  for (const pair of pairs) {
    const at = position.get(pair.doc);
    if (at === undefined) continue;
    pairCounts[at]++;
    const reach = reachByDoc.get(pair.doc);
    if (!reach) continue;
    const last = partitionPoint(reach.starts.length, (i) => reach.starts[i] <= pair.start) - 1;
    if (last >= 0 && reach.maxEnds[last] >= pair.end) kept[at]++;
  }
  return { pairs: pairCounts, kept };
}
