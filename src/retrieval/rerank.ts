import type { Chunk } from "../core/types";
import { SeamlabError } from "../core/errors";
import { chunkTermIds, jaccard, sortedIdJaccard, termSet } from "./metrics";
import type { RankedChunk, Reranker } from "./types";

export function noneReranker(): Reranker {
  return {
    name: "none",
    rerank: (_query, candidates, _chunks, k) => candidates.slice(0, k),
  };
}

/** The share of the shorter chunk's span that the other covers. */
function spanShare(a: Chunk, b: Chunk): number {
  if (a.doc !== b.doc) return 0;
  const shared = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  const shorter = Math.min(a.end - a.start, b.end - b.start);
  return shared > 0 && shorter > 0 ? shared / shorter : 0;
}

/** How much two chunks repeat each other: the larger of `spanShare` and the word Jaccard of their texts. */
export function chunkRedundancy(a: Chunk, b: Chunk): number {
  const share = spanShare(a, b);
  if (share >= 1) return 1;
  return Math.max(share, jaccard(termSet(a.text), termSet(b.text)));
}

/**
 * Maximal marginal relevance (Carbonell & Goldstein 1998) without embeddings: greedily picks argmax lambda ·
 * relevance (first-stage score scaled to [0, 1]) − (1 − lambda) · the most `chunkRedundancy` with a picked chunk.
 */
export function mmrReranker(options: { lambda?: number } = {}): Reranker {
  const lambda = options.lambda ?? 0.5; // relevance against novelty: 1 keeps first-stage order, 0 is pure diversity
  if (!(lambda >= 0 && lambda <= 1)) throw new SeamlabError(`mmr reranker: lambda must be in [0, 1], got ${lambda}.`);
  // `chunkRedundancy` on ids shared with every evaluation's near-duplicate counts (metrics.chunkTermIds)
  const redundancy = (chunks: readonly Chunk[], a: number, b: number): number => {
    const share = spanShare(chunks[a], chunks[b]);
    return share >= 1 ? 1 : Math.max(share, sortedIdJaccard(chunkTermIds(chunks, a), chunkTermIds(chunks, b)));
  };
  return {
    name: `mmr(lambda=${lambda})`,
    rerank(_query, candidates, chunks, k) {
      if (k <= 0 || candidates.length === 0) return [];
      const top = Math.max(...candidates.map((c) => c.score));
      const bottom = Math.min(...candidates.map((c) => c.score));
      const relevance = (c: RankedChunk) => (top === bottom ? 1 : (c.score - bottom) / (top - bottom));
      const remaining = candidates.map((c, rank) => ({ c, rank, maxSim: 0 }));
      const picked: RankedChunk[] = [];
      while (picked.length < k && remaining.length > 0) {
        const values = remaining.map((r) => lambda * relevance(r.c) - (1 - lambda) * r.maxSim);
        // the first of the best: ties go to the earlier first-stage rank
        const [chosen] = remaining.splice(values.indexOf(Math.max(...values)), 1);
        picked.push(chosen.c);
        for (const r of remaining) r.maxSim = Math.max(r.maxSim, redundancy(chunks, chosen.c.index, r.c.index));
      }
      return picked;
    },
  };
}

type EmbedderChoice = Parameters<typeof import("./rerank-dense").denseReranker>[0];

/** By name; `dense` (an embedder spec, default lsa) loads its module on first use, so `none`/`mmr` never do. */
const RERANKERS: Record<string, (options?: Record<string, unknown>) => Reranker | Promise<Reranker>> = {
  none: () => noneReranker(),
  mmr: (options) => mmrReranker({ lambda: options?.lambda === undefined ? undefined : Number(options.lambda) }),
  dense: async (options) => {
    const spec = options && typeof options.kind === "string" ? options : { kind: "lsa" };
    return (await import("./rerank-dense")).denseReranker(spec as EmbedderChoice);
  },
};

/** Throws a SeamlabError naming the known rerankers when `name` is none of them. */
export function checkRerankerName(name: string): void {
  if (!Object.prototype.hasOwnProperty.call(RERANKERS, name))
    throw new SeamlabError(`unknown reranker "${name}" (--rerank). Known: ${Object.keys(RERANKERS).join(", ")}.`);
}

export async function loadReranker(name: string, options?: Record<string, unknown>): Promise<Reranker> {
  checkRerankerName(name);
  return RERANKERS[name](options);
}
