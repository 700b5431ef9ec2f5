import type { Chunk, Doc } from "../core/types";
import { countNonWhitespace } from "../text/paragraphs";
import { chunksByDoc } from "./chunks-by-doc";

/** Where two neighbouring chunks of one doc meet. */
export interface Seam {
  doc: string;
  index: number;
  prevStart: number;
  prevEnd: number;
  nextStart: number;
  nextEnd: number;
  /** source characters both spans cover (and their tokens, with a token counter) */
  overlap: number;
  overlapTokens?: number;
  gap: number;
  /** non-whitespace characters in the gap */
  gapLostChars: number;
}

export function measureSeams(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  options: { countTokens?: (text: string) => number } = {},
): Seam[] {
  const seams: Seam[] = [];
  const byDoc = chunksByDoc(docs, chunks);
  for (const doc of docs) {
    const list = byDoc.get(doc.id)!;
    for (let i = 0; i + 1 < list.length; i++) {
      const prev = list[i];
      const next = list[i + 1];
      const sharedStart = Math.max(prev.start, next.start);
      const sharedEnd = Math.min(prev.end, next.end);
      const overlap = Math.max(0, sharedEnd - sharedStart);
      const gap = Math.max(0, next.start - prev.end);
      const seam: Seam = {
        doc: doc.id,
        index: i,
        prevStart: prev.start,
        prevEnd: prev.end,
        nextStart: next.start,
        nextEnd: next.end,
        overlap,
        gap,
        gapLostChars: gap > 0 ? countNonWhitespace(doc.text, prev.end, next.start) : 0,
      };
      if (options.countTokens) {
        seam.overlapTokens = overlap > 0 ? options.countTokens(doc.text.slice(sharedStart, sharedEnd)) : 0;
      }
      seams.push(seam);
    }
  }
  return seams;
}
