import type { Chunk } from "../core/types";
import { createEmbedder, EmbedderSpec } from "../embed/select";
import { Embedder } from "../embed/types";
import type { RankedChunk, Retriever, RetrieverFactory } from "./types";

/** Unit-length vectors in one contiguous row-major matrix: a scan is a single linear pass over memory. */
export interface DenseIndex {
  count: number;
  dimensions: number;
  matrix: Float32Array;
}

export function buildDenseIndex(vectors: readonly Float32Array[]): DenseIndex {
  const dimensions = vectors.length === 0 ? 0 : vectors[0].length;
  const matrix = new Float32Array(vectors.length * dimensions);
  vectors.forEach((vector, row) => {
    if (vector.length !== dimensions)
      throw new Error(`buildDenseIndex: vector ${row} has ${vector.length} dimensions, expected ${dimensions}`);
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += vector[d] * vector[d];
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < dimensions; d++) matrix[row * dimensions + d] = vector[d] * inv;
  });
  return { count: vectors.length, dimensions, matrix };
}

/**
 * Exact cosine top-k: one dot product per row, kept in a bounded min-heap of size k (O(n·d + n·log k)).
 * Ties go to the lower index, as every retriever here does.
 */
export function searchDense(index: DenseIndex, query: Float32Array, k: number): RankedChunk[] {
  const { count, dimensions: dims, matrix } = index;
  if (k <= 0 || count === 0) return [];
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += query[d] * query[d];
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const q = new Float32Array(dims);
  for (let d = 0; d < dims; d++) q[d] = query[d] * inv;
  const size = Math.min(k, count);
  // Heap root = the worst kept entry (lowest score; among equal scores, the highest index).
  const heapScore = new Float64Array(size);
  const heapIndex = new Int32Array(size);
  let filled = 0;
  const worse = (sa: number, ia: number, sb: number, ib: number) => sa < sb || (sa === sb && ia > ib);
  for (let row = 0; row < count; row++) {
    let score = 0;
    const base = row * dims;
    for (let d = 0; d < dims; d++) score += matrix[base + d] * q[d];
    if (filled < size) {
      let at = filled++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(score, row, heapScore[parent], heapIndex[parent])) break;
        heapScore[at] = heapScore[parent];
        heapIndex[at] = heapIndex[parent];
        at = parent;
      }
      heapScore[at] = score;
      heapIndex[at] = row;
    } else if (worse(heapScore[0], heapIndex[0], score, row)) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= size) break;
        const right = left + 1;
        const child =
          right < size && worse(heapScore[right], heapIndex[right], heapScore[left], heapIndex[left]) ? right : left;
        if (!worse(heapScore[child], heapIndex[child], score, row)) break;
        heapScore[at] = heapScore[child];
        heapIndex[at] = heapIndex[child];
        at = child;
      }
      heapScore[at] = score;
      heapIndex[at] = row;
    }
  }
  const out: RankedChunk[] = [];
  for (let i = 0; i < filled; i++) out.push({ index: heapIndex[i], score: heapScore[i] });
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}

/** A dense retriever: chunks embedded once, each query embedded and scanned exactly. */
export async function createDenseRetriever(
  chunks: readonly (Chunk | string)[],
  embedder: Embedder,
): Promise<Retriever & { index: DenseIndex; embedder: Embedder }> {
  const texts = chunks.map((c) => (typeof c === "string" ? c : c.text));
  const index = buildDenseIndex(await embedder.embed(texts));
  return {
    name: `dense(${embedder.name}, cosine)`,
    index,
    embedder,
    search: async (query: string, k: number) => searchDense(index, (await embedder.embed([query]))[0], k),
  };
}

/**
 * `createRetriever("dense", chunks, { embedder })`: `embedder` is an EmbedderSpec (default `{kind: "lsa"}`, fitted
 * on these chunks) or a ready Embedder object.
 */
export const retrieverFactory: RetrieverFactory = async (chunks, settings) => {
  const given = settings.embedder as EmbedderSpec | Embedder | undefined;
  const texts = chunks.map((c) => c.text);
  const embedder = isEmbedder(given) ? given : await createEmbedder(given ?? { kind: "lsa" }, texts);
  return createDenseRetriever(chunks, embedder);
};

export function isEmbedder(value: unknown): value is Embedder {
  return typeof value === "object" && value !== null && typeof (value as Embedder).embed === "function";
}
