import assert from "node:assert/strict";
import { test } from "node:test";
import type { Chunk } from "../../src/core/types";
import { createRetriever } from "../../src/retrieval/factory";
import { createHybridRetriever, reciprocalRankFusion } from "../../src/retrieval/hybrid";
import type { Retriever } from "../../src/retrieval/types";
import { loadCorpus } from "../../src/corpus/load";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { splitCorpus } from "../../src/splitters/registry";
import { fastifyGuides } from "../helpers/corpora";

const r = (...indices: number[]) => indices.map((index, i) => ({ index, score: 10 - i }));

test("reciprocal rank fusion adds 1/(60 + rank) per list, as computed by hand", () => {
  const fused = reciprocalRankFusion([r(0, 1, 2), r(1, 2, 3)]);
  assert.deepEqual(
    fused.map((x) => x.index),
    [1, 2, 0, 3],
  );
  assert.ok(Math.abs(fused[0].score - (1 / 62 + 1 / 61)) < 1e-15);
  assert.ok(Math.abs(fused[1].score - (1 / 63 + 1 / 62)) < 1e-15);
  assert.ok(Math.abs(fused[2].score - 1 / 61) < 1e-15);
  assert.ok(Math.abs(fused[3].score - 1 / 63) < 1e-15);
});

test("fusion ties go to the lower chunk index", () => {
  assert.deepEqual(
    reciprocalRankFusion([r(5, 2), r(2, 5)]).map((x) => x.index),
    [2, 5],
  );
});

test("the hybrid retriever asks each retriever for `depth` candidates and cuts the fusion to k", async () => {
  const asked: number[] = [];
  const fixed = (name: string, order: number[]): Retriever => ({
    name,
    search: (_q, k) => {
      asked.push(k);
      return r(...order).slice(0, k);
    },
  });
  const hybrid = createHybridRetriever([fixed("a", [0, 1, 2, 3]), fixed("b", [3, 2, 1, 0])], { depth: 4 });
  assert.equal(hybrid.name, "hybrid(rrf k=60, depth=4: a + b)");
  const top = await hybrid.search("q", 2);
  assert.deepEqual(asked, [4, 4]);
  // 0 and 3 score 1/61 + 1/64 = 0.032018; 1 and 2 score 1/62 + 1/63 = 0.032002: the ends win, 0 before 3 by index.
  assert.deepEqual(
    top.map((x) => x.index),
    [0, 3],
  );
});

test("the factory's hybrid fuses BM25 with lsa and finds the chunk both agree on", async () => {
  const texts = [
    "the cat purred on the mat",
    "a kitten and a cat",
    "bond yields rose today",
    "stock and bond markets fell",
  ];
  const chunks: Chunk[] = texts.map((text, i) => ({ doc: `d${i}`, start: 0, end: text.length, text }));
  const hybrid = await createRetriever("hybrid", chunks, { embedder: { kind: "lsa", dimensions: 2 } });
  assert.match(hybrid.name, /^hybrid\(rrf k=60, depth=100: bm25.* \+ dense\(lsa-2 /);
  assert.equal((await hybrid.search("bond yields", 1))[0].index, 2);
});

test("hybrid's batch search (dense parts scored in blocks) returns what one query at a time returns", async () => {
  const set = buildHeaderQueries(loadCorpus(fastifyGuides).docs);
  const chunks = splitCorpus(set.docs, { splitter: "recursive", size: 600, overlap: 100 });
  const hybrid = await createRetriever("hybrid", chunks, { embedder: { kind: "lsa", dimensions: 32 }, depth: 20 });
  assert.ok(hybrid.searchMany, "hybrid has a batch search");
  const texts = set.queries.map((q) => q.text);
  const batch = await hybrid.searchMany(texts, 5);
  const single = await Promise.all(texts.map((text) => hybrid.search(text, 5)));
  assert.deepEqual(batch, single);
  assert.ok(
    single.every((ranked) => ranked.length === 5),
    "every query found 5 chunks",
  );
});
