import type { Chunk, Doc } from "../core/types";
import { partitionPoint } from "../core/sorted";
import { paragraphRegions, type TextRegion } from "../text/paragraphs";
import { firstSentence, lastSentence, SEGMENT_WINDOW, sentenceRegions } from "../text/sentences";
import { chunksByDoc, spansByStart } from "./chunks-by-doc";
import { percent } from "../stats/proportion";

/** The last sentence of one paragraph and the first of the next. */
export type StraddlingPair = ReturnType<typeof straddlingPairs>[number];

export type SeamDamage = ReturnType<typeof seamDamageFromCounts>;

export function straddlingPairs(docs: readonly Doc[]) {
  const pairs: { doc: string; start: number; end: number }[] = [];
  for (const doc of docs) {
    let previous: TextRegion | undefined;
    for (const paragraph of paragraphRegions(doc.text)) {
      // a paragraph within one segmentation window is segmented once for both ends; a longer one probed from each
      const short = paragraph.end - paragraph.start <= SEGMENT_WINDOW;
      const sentences = short ? sentenceRegions(doc.text, paragraph.start, paragraph.end) : undefined;
      const first = sentences ? sentences[0] : firstSentence(doc.text, paragraph.start, paragraph.end);
      if (previous && first) pairs.push({ doc: doc.id, start: previous.start, end: first.end });
      previous = sentences ? sentences[sentences.length - 1] : lastSentence(doc.text, paragraph.start, paragraph.end);
    }
  }
  return pairs;
}

/** The share of straddling sentence pairs that land together in at least one chunk. */
export function measureSeamDamage(docs: readonly Doc[], chunks: readonly Chunk[], pairs = straddlingPairs(docs)) {
  return totalSeamDamage(seamDamageByDoc(docs, chunks, pairs));
}

/** `kept`: pairs together inside one chunk span. */
export function seamDamageFromCounts(kept: number, pairs: number) {
  return { pairs, kept, keptPct: percent(kept, pairs), split: pairs - kept };
}

export function totalSeamDamage(byDoc: { pairs: readonly number[]; kept: readonly number[] }) {
  const kept = byDoc.kept.reduce((s, k) => s + k, 0);
  const pairs = byDoc.pairs.reduce((s, k) => s + k, 0);
  return seamDamageFromCounts(kept, pairs);
}

/** Pairs and pairs kept per document (aligned with `docs`), for a cluster bootstrap. */
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
    const reach = reachByDoc.get(pair.doc)!;
    const last = partitionPoint(reach.starts.length, (i) => reach.starts[i] <= pair.start) - 1;
    if (last >= 0 && reach.maxEnds[last] >= pair.end) kept[at]++;
  }
  return { pairs: pairCounts, kept };
}
