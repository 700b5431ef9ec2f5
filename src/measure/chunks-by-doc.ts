import type { Chunk, Doc } from "../core/types";

/** The chunks of each doc in the splitter's order (neighbours form the seams), keyed like `docs`. */
export function chunksByDoc(docs: readonly Doc[], chunks: readonly Chunk[]): Map<string, Chunk[]> {
  const byDoc = new Map<string, Chunk[]>();
  for (const doc of docs) byDoc.set(doc.id, []);
  for (const chunk of chunks) {
    const list = byDoc.get(chunk.doc);
    // a programming error, not a user one
    if (!list) throw new Error(`chunk refers to doc "${chunk.doc}", which is not in the corpus`);
    list.push(chunk);
  }
  return byDoc;
}

export function spansByStart(chunks: readonly Chunk[]): Chunk[] {
  return [...chunks].sort((a, b) => a.start - b.start || a.end - b.end);
}
