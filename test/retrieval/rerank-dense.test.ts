import assert from "node:assert/strict";
import { test } from "node:test";
import type { Chunk } from "../../src/core/types";
import { Embedder, emptyInputReport } from "../../src/embed/types";
import { denseReranker } from "../../src/retrieval/rerank-dense";

const chunk = (text: string, i: number): Chunk => ({ doc: "d", start: i * 100, end: i * 100 + text.length, text });

/** Vectors by keyword: [cat, dog, fish]. */
function keywordEmbedder(): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    name: "keywords",
    id: "keywords",
    dimensions: 3,
    maxInputTokens: Infinity,
    inputs: emptyInputReport(),
    calls,
    async embed(texts) {
      calls.push(texts);
      return texts.map((t) => Float32Array.from(["cat", "dog", "fish"].map((w) => (t.includes(w) ? 1 : 0))));
    },
  };
}

test("the dense reranker orders candidates by cosine to the query and keeps k", async () => {
  const chunks = ["a dog", "a cat", "cat and dog", "fish"].map(chunk);
  const embedder = keywordEmbedder();
  const reranker = denseReranker(embedder);
  assert.equal(reranker.name, "dense(keywords)");
  const candidates = [0, 1, 2, 3].map((index) => ({ index, score: 10 - index }));
  const top = await reranker.rerank("cat", candidates, chunks, 2);
  assert.deepEqual(
    top.map((r) => r.index),
    [1, 2],
  );
  assert.ok(Math.abs(top[0].score - 1) < 1e-6);
  assert.ok(Math.abs(top[1].score - Math.SQRT1_2) < 1e-6);
});

test("equal cosines keep the first-stage order, and chunk vectors are embedded once", async () => {
  const chunks = ["fish one", "fish two", "fish three"].map(chunk);
  const embedder = keywordEmbedder();
  const reranker = denseReranker(embedder);
  const candidates = [2, 0, 1].map((index, rank) => ({ index, score: 3 - rank }));
  assert.deepEqual(
    (await reranker.rerank("fish", candidates, chunks, 3)).map((r) => r.index),
    [2, 0, 1],
  );
  await reranker.rerank("fish again", candidates, chunks, 3);
  assert.deepEqual(embedder.calls[1], ["fish again"], "the second query embeds only the query");
});

test("with the lsa spec the reranker fits on the config's chunks and names itself honestly", async () => {
  const texts = [
    "the cat purred on the mat",
    "a kitten and a cat",
    "bond yields rose today",
    "stock and bond markets fell",
  ];
  const chunks = texts.map(chunk);
  const reranker = denseReranker({ kind: "lsa", dimensions: 2 });
  assert.match(reranker.name, /lsa .*not a neural model/);
  const top = await reranker.rerank(
    "bond markets",
    [0, 1, 2, 3].map((index) => ({ index, score: 1 })),
    chunks,
    2,
  );
  assert.deepEqual(top.map((r) => r.index).sort(), [2, 3]);
});
