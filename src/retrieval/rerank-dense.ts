import type { Chunk } from "../core/types";
import { createEmbedder, EmbedderSpec } from "../embed/select";
import { cosine, Embedder } from "../embed/types";
import { isEmbedder } from "./dense";
import type { RankedChunk } from "./types";

/** The k candidates of best cosine (ties: first-stage rank); vectors kept per chunk, a spec's model per chunk array. */
export function denseReranker(embedderOrSpec: Embedder | EmbedderSpec = { kind: "lsa" }) {
  const models = new WeakMap<readonly Chunk[], Promise<Embedder>>();
  const vectors = new WeakMap<Embedder, WeakMap<Chunk, Float32Array>>();
  const embedderFor = (chunks: readonly Chunk[]): Promise<Embedder> => {
    if (isEmbedder(embedderOrSpec)) return Promise.resolve(embedderOrSpec);
    let model = models.get(chunks);
    if (!model) {
      const texts = chunks.map((c) => c.text);
      models.set(chunks, (model = createEmbedder(embedderOrSpec, texts)));
    }
    return model;
  };
  const label = isEmbedder(embedderOrSpec)
    ? embedderOrSpec.name
    : embedderOrSpec.kind === "lsa"
      ? "lsa (TF-IDF+SVD fitted on each config's chunks; not a neural model)"
      : embedderOrSpec.kind;
  return {
    name: `dense(${label})`,
    async rerank(
      query: string,
      candidates: readonly RankedChunk[],
      chunks: readonly Chunk[],
      k: number,
    ): Promise<RankedChunk[]> {
      if (k <= 0 || candidates.length === 0) return [];
      const embedder = await embedderFor(chunks);
      let known = vectors.get(embedder);
      if (!known) vectors.set(embedder, (known = new WeakMap()));
      const missing = candidates
        .map((c) => chunks[c.index])
        .filter((chunk, i, all) => !known!.has(chunk) && all.indexOf(chunk) === i);
      const [queryVector, ...fresh] = await embedder.embed([query, ...missing.map((c) => c.text)]);
      missing.forEach((chunk, i) => known!.set(chunk, fresh[i]));
      return candidates
        .map((c, rank) => ({ index: c.index, score: cosine(queryVector, known!.get(chunks[c.index])!), rank }))
        .sort((a, b) => b.score - a.score || a.rank - b.rank)
        .slice(0, k)
        .map(({ index, score }) => ({ index, score }));
    },
  };
}
