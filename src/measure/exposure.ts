import type { Chunk, Query } from "../core/types";
import { partitionPoint } from "../core/sorted";

// Seam exposure: overlap changes a hit through seams only where, at some overlap swept, a chunk boundary falls
// strictly inside a gold span; elsewhere it can move a query only through the ranking.

export type ChunkSpan = Pick<Chunk, "doc" | "start" | "end">;

export function chunkBoundaries(chunks: Iterable<ChunkSpan>): Map<string, number[]> {
  const byDoc = new Map<string, Set<number>>();
  for (const chunk of chunks) {
    let set = byDoc.get(chunk.doc);
    if (set === undefined) byDoc.set(chunk.doc, (set = new Set()));
    set.add(chunk.start).add(chunk.end);
  }
  return new Map([...byDoc].map(([doc, set]) => [doc, [...set].sort((a, b) => a - b)]));
}

/** Is some boundary (ascending) strictly inside (start, end)? */
export function cutsInside(boundaries: readonly number[], start: number, end: number): boolean {
  const lo = partitionPoint(boundaries.length, (i) => boundaries[i] <= start);
  return lo < boundaries.length && boundaries[lo] < end;
}

/** Sets exposed[q] = 1 for every query a boundary cuts: call it per config with one array for the union. */
export function markCutQueries(queries: readonly Query[], chunks: Iterable<ChunkSpan>, exposed: Uint8Array): void {
  const boundaries = chunkBoundaries(chunks);
  queries.forEach((query, q) => {
    if (exposed[q] === 1) return;
    for (const gold of query.gold) {
      const list = boundaries.get(gold.doc);
      if (list !== undefined && cutsInside(list, gold.start, gold.end)) {
        exposed[q] = 1;
        return;
      }
    }
  });
}

export function exposureCount(exposed: Uint8Array): { queries: number; exposed: number; share: number } {
  const count = exposed.reduce((sum, x) => sum + x, 0);
  return { queries: exposed.length, exposed: count, share: exposed.length === 0 ? 0 : count / exposed.length };
}

/** Unexposed queries whose outcome still differs between configs (`hits`: one "0"/"1" string per config). */
export function unexposedFlips(exposed: Uint8Array, hits: readonly string[]): number {
  let flips = 0;
  for (let q = 0; q < exposed.length; q++) {
    if (exposed[q] === 1 || hits.length === 0) continue;
    const first = hits[0].charCodeAt(q);
    if (hits.some((h) => h.charCodeAt(q) !== first)) flips++;
  }
  return flips;
}
