import type { RankedChunk, Retriever } from "./types";

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009): score(d) = Σ 1 / (k + rank(d)), ranks from 1, k = 60 as
 * in the paper. Only ranks matter, so BM25 and cosine need no calibration. Ties go to the lower chunk index.
 */
export function reciprocalRankFusion(rankings: readonly (readonly RankedChunk[])[], k = 60): RankedChunk[] {
  const fused = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((entry, position) =>
      fused.set(entry.index, (fused.get(entry.index) ?? 0) + 1 / (k + position + 1)),
    );
  }
  return [...fused.entries()]
    .map(([index, score]) => ({ index, score }))
    .sort((a, b) => b.score - a.score || a.index - b.index);
}

/** Fuses retrievers (typically BM25 + dense) by RRF over each one's `depth` best (default 100, at least k). */
export function createHybridRetriever(
  retrievers: readonly Retriever[],
  options: { rrfK?: number; depth?: number } = {},
): Retriever {
  const rrfK = options.rrfK ?? 60;
  const depth = options.depth ?? 100;
  const searchMany = async (queries: readonly string[], k: number) => {
    const take = Math.max(depth, k);
    const parts: RankedChunk[][][] = [];
    for (const r of retrievers)
      parts.push(await (r.searchMany?.(queries, take) ?? Promise.all(queries.map((query) => r.search(query, take)))));
    return queries.map((_, q) => {
      const rankings = parts.map((part) => part[q].slice(0, take));
      return reciprocalRankFusion(rankings, rrfK).slice(0, k);
    });
  };
  return {
    name: `hybrid(rrf k=${rrfK}, depth=${depth}: ${retrievers.map((r) => r.name).join(" + ")})`,
    search: async (query: string, k: number) => (await searchMany([query], k))[0],
    searchMany,
  };
}
