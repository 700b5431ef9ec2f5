import type { Chunk } from "../core/types";
import { createEmbedder, EmbedderSpec } from "../embed/select";
import { Embedder } from "../embed/types";
import type { RankedChunk, Retriever, RetrieverFactory } from "./types";
import { QUERY_LANES, scoreKernel, type ScoreKernel } from "./dense-scores";

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

/** A bounded min-heap of the k best (score, row) pairs; ties go to the lower row, as every retriever here does. */
class TopK {
  readonly score: Float64Array;
  readonly row: Int32Array;
  filled = 0;
  constructor(readonly size: number) {
    this.score = new Float64Array(size);
    this.row = new Int32Array(size);
  }
  // Root = the worst kept entry (lowest score; among equal scores, the highest row).
  private worse(sa: number, ia: number, sb: number, ib: number): boolean {
    return sa < sb || (sa === sb && ia > ib);
  }
  push(score: number, row: number): void {
    const { size, score: heapScore, row: heapIndex } = this;
    if (this.filled < size) {
      let at = this.filled++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.worse(score, row, heapScore[parent], heapIndex[parent])) break;
        heapScore[at] = heapScore[parent];
        heapIndex[at] = heapIndex[parent];
        at = parent;
      }
      heapScore[at] = score;
      heapIndex[at] = row;
    } else if (this.worse(heapScore[0], heapIndex[0], score, row)) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= size) break;
        const right = left + 1;
        const child =
          right < size && this.worse(heapScore[right], heapIndex[right], heapScore[left], heapIndex[left])
            ? right
            : left;
        if (!this.worse(heapScore[child], heapIndex[child], score, row)) break;
        heapScore[at] = heapScore[child];
        heapIndex[at] = heapIndex[child];
        at = child;
      }
      heapScore[at] = score;
      heapIndex[at] = row;
    }
  }
  ranked(): RankedChunk[] {
    const out: RankedChunk[] = [];
    for (let i = 0; i < this.filled; i++) out.push({ index: this.row[i], score: this.score[i] });
    return out.sort((a, b) => b.score - a.score || a.index - b.index);
  }
}

function unitQuery(query: Float32Array, dims: number): Float32Array {
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += query[d] * query[d];
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const q = new Float32Array(dims);
  for (let d = 0; d < dims; d++) q[d] = query[d] * inv;
  return q;
}

/**
 * Exact cosine top-k: one dot product per row, kept in a bounded min-heap of size k (O(n·d + n·log k)).
 * Ties go to the lower index, as every retriever here does.
 */
export function searchDense(index: DenseIndex, query: Float32Array, k: number): RankedChunk[] {
  const { count, dimensions: dims, matrix } = index;
  if (k <= 0 || count === 0) return [];
  const q = unitQuery(query, dims);
  const heap = new TopK(Math.min(k, count));
  for (let row = 0; row < count; row++) {
    let score = 0;
    const base = row * dims;
    for (let d = 0; d < dims; d++) score += matrix[base + d] * q[d];
    heap.push(score, row);
  }
  return heap.ranked();
}

/** Queries scored together per pass over the matrix (each row is read from memory once per block, not per query). */
const queryBlock = QUERY_LANES;
/** Rows copied into the WebAssembly kernel's memory at a time: small enough to stay in cache across query blocks. */
const kernelRows = 256;
/** Query blocks held in the kernel's memory at a time (2,048 queries; 4 MB at 256 dimensions). */
const kernelQueryBlocks = 256;

/**
 * `searchDense` for many queries at once, with identical results: the matrix is streamed once per block of
 * queries instead of once per query. A 1M × 256 Float32 matrix is 1 GB, far beyond any cache, so a scan is
 * memory-bound and blocking queries is what makes evaluating thousands of them affordable. The dot products run
 * in a WebAssembly kernel (`dense-scores.ts`: the same double sums, bit for bit) where the runtime has one.
 */
export function searchDenseMany(index: DenseIndex, queries: readonly Float32Array[], k: number): RankedChunk[][] {
  const { count, dimensions: dims } = index;
  if (k <= 0 || count === 0) return queries.map(() => []);
  const kernel = dims > 0 ? scoreKernel() : null;
  return kernel ? searchWithKernel(kernel, index, queries, k) : searchDenseManyJs(index, queries, k);
}

function searchWithKernel(
  kernel: ScoreKernel,
  index: DenseIndex,
  queries: readonly Float32Array[],
  k: number,
): RankedChunk[][] {
  const { count, dimensions: dims, matrix } = index;
  const size = Math.min(k, count);
  const heaps = queries.map(() => new TopK(size));
  const perPass = kernelQueryBlocks * queryBlock;
  for (let first = 0; first < queries.length; first += perPass) {
    const passQueries = queries.length - first < perPass ? queries.length - first : perPass;
    const blocks = Math.ceil(passQueries / queryBlock);
    kernel.reserve(blocks, Math.min(kernelRows, count), dims);
    const { queries: interleaved, rows, out } = kernel;
    // Block b holds its queries interleaved: interleaved[b * dims * 8 + d * 8 + lane] (a missing lane stays 0).
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
          const heap = heaps[first + b * queryBlock + lane];
          for (let r = 0; r < n; r++) heap.push(out[r * queryBlock + lane], from + r);
        }
      }
    }
  }
  return heaps.map((heap) => heap.ranked());
}

/** `searchDenseMany` in plain JavaScript (runtimes without WebAssembly SIMD; tests compare the two). */
export function searchDenseManyJs(index: DenseIndex, queries: readonly Float32Array[], k: number): RankedChunk[][] {
  const { count, dimensions: dims, matrix } = index;
  if (k <= 0 || count === 0) return queries.map(() => []);
  const size = Math.min(k, count);
  const out: RankedChunk[][] = [];
  for (let from = 0; from < queries.length; from += queryBlock) {
    const block = queries.slice(from, from + queryBlock).map((q) => unitQuery(q, dims));
    const heaps = block.map(() => new TopK(size));
    // Interleaved q[d * 8 + b] (missing queries of a last, short block stay zero) so the eight running sums
    // live in locals; each sum adds the same products in the same order as a one-query scan.
    const q = new Float32Array(dims * queryBlock);
    block.forEach((vector, b) => {
      for (let d = 0; d < dims; d++) q[d * queryBlock + b] = vector[d];
    });
    for (let row = 0; row < count; row++) {
      const base = row * dims;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        s4 = 0,
        s5 = 0,
        s6 = 0,
        s7 = 0;
      for (let d = 0, at = 0; d < dims; d++, at += queryBlock) {
        const m = matrix[base + d];
        s0 += m * q[at];
        s1 += m * q[at + 1];
        s2 += m * q[at + 2];
        s3 += m * q[at + 3];
        s4 += m * q[at + 4];
        s5 += m * q[at + 5];
        s6 += m * q[at + 6];
        s7 += m * q[at + 7];
      }
      const n = heaps.length;
      heaps[0].push(s0, row);
      if (n > 1) heaps[1].push(s1, row);
      if (n > 2) heaps[2].push(s2, row);
      if (n > 3) heaps[3].push(s3, row);
      if (n > 4) heaps[4].push(s4, row);
      if (n > 5) heaps[5].push(s5, row);
      if (n > 6) heaps[6].push(s6, row);
      if (n > 7) heaps[7].push(s7, row);
    }
    for (const heap of heaps) out.push(heap.ranked());
  }
  return out;
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
    searchMany: async (queries: readonly string[], k: number) =>
      queries.length === 0 ? [] : searchDenseMany(index, await embedder.embed([...queries]), k),
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
