import type { Chunk } from "../core/types";
import type { RankedChunk, Retriever, RetrieverFactory } from "./types";

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009): score(d) = Σ over rankings of 1 / (k + rank(d)),
 * rank starting at 1; k = 60 as in the paper. Only ranks matter, so BM25 and cosine scores need no calibration.
 * Ties go to the lower chunk index.
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

export interface HybridOptions {
  /** RRF constant (default 60). */
  rrfK?: number;
  /** Candidates taken from each retriever before fusing (default 100, at least the k asked for). */
  depth?: number;
}

/** Fuses several retrievers (typically BM25 + dense) by reciprocal rank fusion. */
export function createHybridRetriever(retrievers: readonly Retriever[], options: HybridOptions = {}): Retriever {
  const rrfK = options.rrfK ?? 60;
  const depth = options.depth ?? 100;
  return {
    name: `hybrid(rrf k=${rrfK}, depth=${depth}: ${retrievers.map((r) => r.name).join(" + ")})`,
    async search(query: string, k: number) {
      const take = Math.max(depth, k);
      const rankings = await Promise.all(retrievers.map(async (r) => (await r.search(query, take)).slice(0, take)));
      return reciprocalRankFusion(rankings, rrfK).slice(0, k);
    },
    // The same fusion over each part's batch search where it has one (dense scans the matrix once per block).
    async searchMany(queries: readonly string[], k: number) {
      const take = Math.max(depth, k);
      const parts: RankedChunk[][][] = [];
      for (const r of retrievers) {
        if (r.searchMany) parts.push(await r.searchMany(queries, take));
        else parts.push(await Promise.all(queries.map((query) => r.search(query, take))));
      }
      return queries.map((_, q) =>
        reciprocalRankFusion(
          parts.map((part) => part[q].slice(0, take)),
          rrfK,
        ).slice(0, k),
      );
    },
  };
}

/**
 * The factory behind `createRetriever("hybrid", chunks, settings)`, given the factories it fuses (BM25 reading
 * settings k1, b, stem, ...; dense reading settings.embedder): fused with settings.rrfK (default 60) over
 * settings.depth candidates (default 100).
 */
export function hybridRetrieverFactory(...parts: RetrieverFactory[]): RetrieverFactory {
  return async (chunks: readonly Chunk[], settings, scope) => {
    const retrievers: Retriever[] = [];
    for (const part of parts) retrievers.push(await part(chunks, settings, scope));
    return createHybridRetriever(retrievers, {
      rrfK: settings.rrfK === undefined ? undefined : Number(settings.rrfK),
      depth: settings.depth === undefined ? undefined : Number(settings.depth),
    });
  };
}
