import type { Chunk, Doc } from "../core/types";
import { countNonWhitespace } from "../text/paragraphs";
import { chunksByDoc, spansByStart } from "./chunks-by-doc";

/** Non-whitespace text no chunk covers (whitespace between chunks is not lost: splitters drop separators). */
export function measureLostText(docs: readonly Doc[], chunks: readonly Chunk[]) {
  const byDoc = chunksByDoc(docs, chunks);
  const result = { lostChars: 0, docsWithLostText: 0, byDoc: [] as { doc: string; lostChars: number }[] };
  for (const doc of docs) {
    let reach = 0;
    let lost = 0;
    for (const chunk of spansByStart(byDoc.get(doc.id)!)) {
      const start = Math.min(Math.max(chunk.start, 0), doc.text.length);
      if (start > reach) lost += countNonWhitespace(doc.text, reach, start);
      reach = Math.max(reach, Math.min(chunk.end, doc.text.length));
    }
    lost += countNonWhitespace(doc.text, reach, doc.text.length);
    if (lost > 0) {
      result.lostChars += lost;
      result.docsWithLostText++;
      result.byDoc.push({ doc: doc.id, lostChars: lost });
    }
  }
  return result;
}

/** Source characters indexed more than once: the sum of span lengths minus the characters any span covers. */
export function measureDuplicatedChars(docs: readonly Doc[], chunks: readonly Chunk[]): number {
  let duplicated = 0;
  for (const list of chunksByDoc(docs, chunks).values()) {
    let reach = 0;
    for (const chunk of spansByStart(list)) {
      const length = chunk.end - chunk.start;
      const fresh = Math.max(0, chunk.end - Math.max(chunk.start, reach));
      duplicated += length - fresh;
      reach = Math.max(reach, chunk.end);
    }
  }
  return duplicated;
}
