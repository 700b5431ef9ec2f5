import type { Chunk } from "../core/types";
import { cosine, Embedder } from "../embed/types";
import { positionsByStratum } from "../stats/cluster";
import { mean } from "../stats/quantiles";

/** Neighbouring chunks of one document (span order): cosine similarity beside real overlap (from the spans). */
export type NeighbourRow = ReturnType<typeof neighbourRowsFromVectors>[number];
export type NeighbourSummary = ReturnType<typeof summariseNeighbours>;

/** Rows from vectors already computed for `chunks` (e.g. a dense index's). */
export function neighbourRowsFromVectors(chunks: readonly Chunk[], vectors: readonly Float32Array[], embedder: string) {
  const docs = chunks.map((chunk) => chunk.doc);
  const byDoc = positionsByStratum(chunks.length, docs) as Map<string, number[]>;
  return [...byDoc].flatMap(([doc, indices]) => {
    indices.sort((a, b) => chunks[a].start - chunks[b].start || chunks[a].end - chunks[b].end || a - b);
    return indices.slice(1).map((second, j) => {
      const first = indices[j];
      const a = chunks[first];
      const b = chunks[second];
      const realOverlap = Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
      const shorter = Math.min(a.end - a.start, b.end - b.start);
      return {
        doc,
        first,
        second,
        realOverlap,
        /** realOverlap / the shorter span's length */
        overlapShare: shorter > 0 ? realOverlap / shorter : 0,
        similarity: cosine(vectors[first], vectors[second]),
        embedder,
      };
    });
  });
}

export async function neighbourSimilarity(chunks: readonly Chunk[], embedder: Embedder): Promise<NeighbourRow[]> {
  const vectors = await embedder.embed(chunks.map((c) => c.text));
  return neighbourRowsFromVectors(chunks, vectors, embedder.name);
}

export function summariseNeighbours(rows: readonly NeighbourRow[], embedder: string = rows[0]?.embedder ?? "") {
  const overlapping = rows.filter((r) => r.realOverlap > 0);
  const disjoint = rows.filter((r) => r.realOverlap === 0);
  return {
    embedder,
    pairs: rows.length,
    overlappingPairs: overlapping.length,
    meanSimilarity: mean(rows.map((r) => r.similarity)),
    /** NaN when there are no such pairs */
    meanSimilarityOverlapping: mean(overlapping.map((r) => r.similarity)),
    meanSimilarityDisjoint: mean(disjoint.map((r) => r.similarity)),
    /** Pearson, of overlapShare and similarity (NaN when either is constant) */
    correlation: pearson(
      rows.map((r) => r.overlapShare),
      rows.map((r) => r.similarity),
    ),
  };
}

function pearson(xs: number[], ys: number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? NaN : sxy / Math.sqrt(sxx * syy);
}
