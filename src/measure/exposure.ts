import type { Query } from "../core/types";
import { partitionPoint } from "../core/sorted";

/**
 * Seam exposure: can a chunk boundary fall inside a query's gold span at all? A query hits when one retrieved chunk
 * holds a whole gold span, so overlap changes a hit through seams only where, at some overlap swept, a boundary
 * cuts the span. A span that starts a document, or sits inside a piece no config at that size cuts, is whole in one
 * chunk at every overlap: overlap can move it only by changing the ranking (other chunks' text).
 *
 * Exact and conservative by construction: a query is exposed when some chunk start or end of some swept config lies
 * strictly inside one of its gold spans (start < boundary < end). Boundaries at a span's own edges do not cut it.
 */

/** The part of a chunk exposure reads. */
export interface ChunkSpan {
  doc: string;
  start: number;
  end: number;
}

/** Each document's chunk starts and ends, ascending, without repeats. */
export function chunkBoundaries(chunks: Iterable<ChunkSpan>): Map<string, number[]> {
  const byDoc = new Map<string, number[]>();
  for (const chunk of chunks) {
    let list = byDoc.get(chunk.doc);
    if (list === undefined) byDoc.set(chunk.doc, (list = []));
    list.push(chunk.start, chunk.end);
  }
  for (const [doc, list] of byDoc) {
    list.sort((a, b) => a - b);
    byDoc.set(
      doc,
      list.filter((x, i) => i === 0 || x !== list[i - 1]),
    );
  }
  return byDoc;
}

/** Is some boundary (ascending) strictly inside [start, end)? Binary search for the first one above `start`. */
export function cutsInside(boundaries: readonly number[], start: number, end: number): boolean {
  const lo = partitionPoint(boundaries.length, (i) => boundaries[i] <= start);
  return lo < boundaries.length && boundaries[lo] < end;
}

/**
 * Marks in `exposed` (one byte per query, 1 = exposed) every query one of whose gold spans is cut by a boundary of
 * `chunks`: call it once per config (or per batch of documents of a config) with the same array to take the union.
 * Documents without chunks here are skipped, so batches of documents can be marked one at a time.
 */
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

/** How many queries are exposed, and their share. */
export function exposureCount(exposed: Uint8Array): { queries: number; exposed: number; share: number } {
  let count = 0;
  for (const x of exposed) count += x;
  return { queries: exposed.length, exposed: count, share: exposed.length === 0 ? 0 : count / exposed.length };
}

/**
 * Unexposed queries whose outcome still differs between configs (`hits`: one "0"/"1" string per config, in query
 * order): overlap moved them through the ranking, not a seam. It tests the "at most" of the exposed share.
 */
export function unexposedFlips(exposed: Uint8Array, hits: readonly string[]): number {
  let flips = 0;
  for (let q = 0; q < exposed.length; q++) {
    if (exposed[q] === 1 || hits.length === 0) continue;
    const first = hits[0].charCodeAt(q);
    if (hits.some((h) => h.charCodeAt(q) !== first)) flips++;
  }
  return flips;
}
