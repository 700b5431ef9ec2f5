import assert from "node:assert/strict";
import { test } from "node:test";
import type { Chunk } from "../../src/core/types";
import { seededRandom } from "../../src/core/random";
import { Embedder, emptyInputReport } from "../../src/embed/types";
import {
  buildDenseIndex,
  createDenseRetriever,
  searchDense,
  searchDenseMany,
  searchDenseManyJs,
} from "../../src/retrieval/dense";
import { scoreKernel } from "../../src/retrieval/dense-scores";
import { createRetriever } from "../../src/retrieval/factory";

function bruteForce(vectors: Float32Array[], query: Float32Array, k: number) {
  const norm = (v: Float32Array) => Math.hypot(...v) || 1;
  return vectors
    .map((v, index) => ({ index, score: v.reduce((s, x, d) => s + x * query[d], 0) / norm(v) / norm(query) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, k);
}

test("exact dense search returns the same top-k as sorting every cosine, for many k", () => {
  const random = seededRandom(5);
  const vectors = Array.from({ length: 300 }, () => Float32Array.from({ length: 16 }, () => random() - 0.5));
  const index = buildDenseIndex(vectors);
  for (let q = 0; q < 10; q++) {
    const query = Float32Array.from({ length: 16 }, () => random() - 0.5);
    for (const k of [1, 5, 37, 300, 500]) {
      const got = searchDense(index, query, k);
      const want = bruteForce(vectors, query, k);
      assert.deepEqual(
        got.map((r) => r.index),
        want.map((r) => r.index),
        `query ${q}, k=${k}`,
      );
      got.forEach((r, i) => assert.ok(Math.abs(r.score - want[i].score) < 1e-5));
    }
  }
});

test("searching many queries at once gives exactly the one-at-a-time rankings and scores (full and short blocks)", () => {
  const random = seededRandom(11);
  const vectors = Array.from({ length: 257 }, () => Float32Array.from({ length: 24 }, () => random() - 0.5));
  // Duplicated rows make ties, which must still go to the lower index.
  vectors[200] = vectors[3];
  const index = buildDenseIndex(vectors);
  const queries = Array.from({ length: 19 }, () => Float32Array.from({ length: 24 }, () => random() - 0.5));
  queries[7] = Float32Array.from(vectors[3]);
  for (const k of [1, 5, 300]) {
    const many = searchDenseMany(index, queries, k);
    assert.equal(many.length, queries.length);
    queries.forEach((query, q) => assert.deepEqual(many[q], searchDense(index, query, k), `query ${q}, k=${k}`));
  }
  assert.deepEqual(searchDenseMany(index, queries.slice(0, 3), 0), [[], [], []]);
});

test("the WebAssembly kernel gives bit-identical scores to the JavaScript sums, across row and query passes", () => {
  assert.ok(scoreKernel(), "Node 20 runs WebAssembly SIMD, so searches take the kernel path");
  const random = seededRandom(23);
  // 600 rows cross the kernel's 256-row passes; 2,061 queries cross its 2,048-query passes and end in a short block.
  for (const [rows, dims, count] of [
    [600, 7, 2061],
    [3, 1, 9],
    [300, 128, 17],
  ]) {
    const vectors = Array.from({ length: rows }, () => Float32Array.from({ length: dims }, () => random() - 0.5));
    vectors[rows - 1] = vectors[0];
    const index = buildDenseIndex(vectors);
    const queries = Array.from({ length: count }, () => Float32Array.from({ length: dims }, () => random() - 0.5));
    queries[count - 1] = Float32Array.from({ length: dims }, () => 0);
    for (const k of [1, 5, rows + 3]) {
      const fast = searchDenseMany(index, queries, k);
      const js = searchDenseManyJs(index, queries, k);
      assert.deepEqual(fast, js, `${rows} rows x ${dims} dims, ${count} queries, k=${k}`);
      for (const q of [0, 8, count - 2, count - 1]) assert.deepEqual(fast[q], searchDense(index, queries[q], k));
    }
  }
});

test("equal scores are broken by the lower index", () => {
  const same = Float32Array.from([1, 0]);
  const index = buildDenseIndex([Float32Array.from([0, 1]), same, same, same, Float32Array.from([1, 0.0001])]);
  assert.deepEqual(
    searchDense(index, Float32Array.from([1, 0]), 3).map((r) => r.index),
    [1, 2, 3],
  );
  assert.deepEqual(searchDense(index, Float32Array.from([1, 0]), 0), []);
});

test("a dense retriever embeds the query with the chunks' embedder and names it", async () => {
  const fake: Embedder = {
    name: "fake-2d",
    id: "fake",
    dimensions: 2,
    maxInputTokens: Infinity,
    inputs: emptyInputReport(),
    embed: async (texts) => texts.map((t) => Float32Array.from([t.includes("cat") ? 1 : 0, t.includes("dog") ? 1 : 0])),
  };
  const retriever = await createDenseRetriever(["a dog", "a cat", "cat and dog"], fake);
  assert.equal(retriever.name, "dense(fake-2d, cosine)");
  assert.deepEqual(
    (await retriever.search("cat", 2)).map((r) => r.index),
    [1, 2],
  );
});

test("the retriever factory builds a dense retriever with lsa by default, honestly named", async () => {
  const texts = ["the cat purred on the mat", "a kitten and a cat", "bond yields rose", "stock and bond markets fell"];
  const chunks: Chunk[] = texts.map((text, i) => ({ doc: `d${i}`, start: 0, end: text.length, text }));
  const retriever = await createRetriever("dense", chunks, { embedder: { kind: "lsa", dimensions: 2 } });
  assert.match(retriever.name, /^dense\(lsa-2 \(TF-IDF\+SVD fitted on this corpus; not a neural model\), cosine\)$/);
  const top = await retriever.search("bond markets", 2);
  assert.deepEqual(top.map((r) => r.index).sort(), [2, 3]);
});
