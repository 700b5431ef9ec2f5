import type { Chunk, Doc } from "../core/types";
import { chunksByDoc } from "./chunks-by-doc";
import type { Seam } from "./seams";

// Words that point back: after a zero-overlap seam, their antecedent sits in another chunk.
const BACKWARD_WORDS = new Set(
  (
    "That This These Those It Its They Them Their He She His Her So But And Or Yet Such Thus Hence Therefore However " +
    "Then Also Both"
  ).split(" "),
);

export type OpenerSample = ReturnType<typeof measureBackwardOpeners>["samples"][number];

const LEADING_DECORATION = /^[\s>*_"'“‘(\-#]*/;
const FIRST_WORD = /^[A-Za-z]+/;

/** The first word of `text`, after whitespace, quotes and markdown markers. */
export function openingWord(text: string): string | undefined {
  return FIRST_WORD.exec(text.slice(0, 200).replace(LEADING_DECORATION, ""))?.[0];
}

/** Zero-overlap seams whose next chunk opens with one of `BACKWARD_WORDS` (exact case), the first few as samples. */
export function measureBackwardOpeners(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  seams: readonly Seam[],
  { maxSamples = 5, sampleLength = 120 }: { maxSamples?: number; sampleLength?: number } = {},
) {
  const byDoc = chunksByDoc(docs, chunks);
  const counts = new Map<string, number>();
  const samples: { doc: string; index: number; word: string; text: string }[] = [];
  let zero = 0;
  let backward = 0;
  for (const seam of seams) {
    if (seam.overlap > 0) continue;
    zero++;
    const next = byDoc.get(seam.doc)![seam.index + 1];
    const word = openingWord(next.text);
    if (word === undefined || !BACKWARD_WORDS.has(word)) continue;
    backward++;
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (samples.length < maxSamples) {
      const opening = next.text.trimStart().split("\n", 1)[0];
      samples.push({ doc: seam.doc, index: seam.index, word, text: opening.slice(0, sampleLength) });
    }
  }
  return { zeroOverlapSeams: zero, backwardOpeners: backward, byWord: wordCounts(counts), samples };
}

export function wordCounts(counts: ReadonlyMap<string, number>): { word: string; count: number }[] {
  return [...counts.entries()]
    .map(([word, count]) => ({ word, count }))
    .sort((a, b) => b.count - a.count || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
}
