import type { Chunk, Doc } from "../core/types";

/**
 * The chunks of each doc, in the splitter's output order (neighbours in this order form the seams),
 * keyed by doc id and ordered like `docs`. Docs without chunks get an empty list.
 */
export function chunksByDoc(docs: readonly Doc[], chunks: readonly Chunk[]): Map<string, Chunk[]> {
  const byDoc = new Map<string, Chunk[]>();
  for (const doc of docs) byDoc.set(doc.id, []);
  for (const chunk of chunks) {
    const list = byDoc.get(chunk.doc);
    // A chunk of a doc the caller did not pass is a programming error, not a user one.
    if (!list) throw new Error(`chunk refers to doc "${chunk.doc}", which is not in the corpus`);
    list.push(chunk);
  }
  return byDoc;
}

/** Spans sorted by start then end (a copy), for coverage sweeps. */
export function spansByStart(chunks: readonly Chunk[]): Chunk[] {
  return [...chunks].sort((a, b) => a.start - b.start || a.end - b.end);
}
