import type { Chunk, Doc } from "../core/types";
import { chunksByDoc, spansByStart } from "./chunks-by-doc";

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
