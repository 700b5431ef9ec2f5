import type { Chunk } from "../core/types";
import { createEmbedder, EmbedderSpec } from "../embed/select";
import { Embedder, normaliseInPlace } from "../embed/types";
import type { RankedChunk, Retriever, RetrieverFactory } from "./types";
import { QUERY_LANES as queryBlock, scoreKernel } from "./dense-scores";
import { keepBest } from "./top-k";

export type DenseIndex = ReturnType<typeof buildDenseIndex>;

/** Unit-length vectors in one contiguous row-major matrix: a scan is a single linear pass over memory. */
export function buildDenseIndex(vectors: readonly Float32Array[]) {
  const dimensions = vectors.length === 0 ? 0 : vectors[0].length;
  const matrix = new Float32Array(vectors.length * dimensions);
  vectors.forEach((vector, row) => {
    if (vector.length !== dimensions)
      throw new Error(`buildDenseIndex: vector ${row} has ${vector.length} dimensions, expected ${dimensions}`);
    matrix.set(unitQuery(vector, dimensions), row * dimensions);
  });
  return { count: vectors.length, dimensions, matrix };
}

const unitQuery = (query: Float32Array, dims: number) => normaliseInPlace(query.slice(0, dims));

/** Exact cosine top-k: one dot product per row. */
export function searchDense(index: DenseIndex, query: Float32Array, k: number): RankedChunk[] {
  const { count, dimensions: dims, matrix } = index;
  if (k <= 0 || count === 0) return [];
  const q = unitQuery(query, dims);
  const best: RankedChunk[] = [];
  for (let row = 0; row < count; row++) {
    let score = 0;
    const base = row * dims;
    for (let d = 0; d < dims; d++) score += matrix[base + d] * q[d];
    keepBest(best, k, row, score);
  }
  return best;
}

/** Rows copied into the kernel's memory at a time: small enough to stay in cache across query blocks. */
const kernelRows = 256;
/** Query blocks in the kernel's memory at a time (2,048 queries; 4 MB at 256 dimensions). */
const kernelQueryBlocks = 256;

/**
 * `searchDense` for many queries, identical results: a 1M × 256 matrix is 1 GB, so the scan is memory-bound; streaming
 * it once per block of queries (`dense-scores.ts`'s kernel, bit for bit the same sums) makes thousands affordable.
 */
export function searchDenseMany(index: DenseIndex, queries: readonly Float32Array[], k: number): RankedChunk[][] {
  const { count, dimensions: dims, matrix } = index;
  if (k <= 0 || count === 0) return queries.map(() => []);
  const kernel = dims > 0 ? scoreKernel() : null;
  if (kernel === null) return searchDenseManyJs(index, queries, k);
  const best = queries.map((): RankedChunk[] => []);
  const perPass = kernelQueryBlocks * queryBlock;
  for (let first = 0; first < queries.length; first += perPass) {
    const passQueries = queries.length - first < perPass ? queries.length - first : perPass;
    const blocks = Math.ceil(passQueries / queryBlock);
    kernel.reserve(blocks, Math.min(kernelRows, count), dims);
    const { queries: interleaved, rows, out } = kernel;
    // interleaved[b * dims * 8 + d * 8 + lane] (a missing lane stays 0)
    interleaved.fill(0);
    for (let i = 0; i < passQueries; i++) {
      const q = unitQuery(queries[first + i], dims);
      const base = Math.floor(i / queryBlock) * dims * queryBlock + (i % queryBlock);
      for (let d = 0; d < dims; d++) interleaved[base + d * queryBlock] = q[d];
    }
    for (let from = 0; from < count; from += kernelRows) {
      const n = Math.min(kernelRows, count - from);
      rows.set(matrix.subarray(from * dims, (from + n) * dims));
      for (let b = 0; b < blocks; b++) {
        kernel.score(b, n, dims);
        const lanes = Math.min(queryBlock, passQueries - b * queryBlock);
        for (let lane = 0; lane < lanes; lane++) {
          const top = best[first + b * queryBlock + lane];
          for (let r = 0; r < n; r++) keepBest(top, k, from + r, out[r * queryBlock + lane]);
        }
      }
    }
  }
  return best;
}

/** `searchDenseMany` in plain JavaScript, one query at a time (runtimes without WebAssembly SIMD). */
export function searchDenseManyJs(index: DenseIndex, queries: readonly Float32Array[], k: number): RankedChunk[][] {
  return queries.map((query) => searchDense(index, query, k));
}

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
    searchMany: async (queries: readonly string[], k: number) =>
      queries.length === 0 ? [] : searchDenseMany(index, await embedder.embed([...queries]), k),
  };
}

/** `createRetriever("dense", chunks, { embedder })`: an EmbedderSpec (default lsa, fitted here) or an Embedder. */
export const retrieverFactory: RetrieverFactory = async (chunks, settings) => {
  const given = settings.embedder as EmbedderSpec | Embedder | undefined;
  const texts = chunks.map((c) => c.text);
  const embedder = isEmbedder(given) ? given : await createEmbedder(given ?? { kind: "lsa" }, texts);
  return createDenseRetriever(chunks, embedder);
};

export function isEmbedder(value: unknown): value is Embedder {
  return typeof value === "object" && value !== null && typeof (value as Embedder).embed === "function";
}
