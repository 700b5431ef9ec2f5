import type { Chunk, Doc } from "../core/types";
import { countNonWhitespace } from "../text/paragraphs";
import { chunksByDoc } from "./chunks-by-doc";

/** Where two neighbouring chunks of one doc meet. */
export type Seam = ReturnType<typeof measureSeams>[number];

export function measureSeams(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  options: { countTokens?: (text: string) => number } = {},
) {
  const byDoc = chunksByDoc(docs, chunks);
  const countTokens = options.countTokens;
  return docs.flatMap((doc) => {
    const list = byDoc.get(doc.id)!;
    return list.slice(1).map((next, i) => {
      const prev = list[i];
      const sharedStart = Math.max(prev.start, next.start);
      const sharedEnd = Math.min(prev.end, next.end);
      const overlap = Math.max(0, sharedEnd - sharedStart);
      const gap = Math.max(0, next.start - prev.end);
      return {
        doc: doc.id,
        index: i,
        prevStart: prev.start,
        prevEnd: prev.end,
        nextStart: next.start,
        nextEnd: next.end,
        /** source characters both spans cover (and their tokens, with a token counter) */
        overlap,
        gap,
        /** non-whitespace characters in the gap */
        gapLostChars: gap > 0 ? countNonWhitespace(doc.text, prev.end, next.start) : 0,
        ...(countTokens
          ? { overlapTokens: overlap > 0 ? countTokens(doc.text.slice(sharedStart, sharedEnd)) : 0 }
          : {}),
      };
    });
  });
}
