import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluateQueries, indexRatio, summarizeOutcomes } from "../../src/retrieval/evaluate";
import { createRetriever, registerRetriever } from "../../src/retrieval/factory";
import type { Retriever } from "../../src/retrieval/types";

const text = "0123456789".repeat(10); // 100 chars
const chunks = [
  { doc: "d", start: 0, end: 40, text: "alpha beta gamma" },
  { doc: "d", start: 30, end: 70, text: "alpha beta gamma" }, // overlaps chunk 0, same terms
  { doc: "d", start: 70, end: 100, text: "delta epsilon" },
  { doc: "e", start: 0, end: 50, text: "zeta eta" },
];
/** An async retriever returning a fixed ranking, so the evaluation is tested apart from BM25. */
const fixed = (ranking: Record<string, number[]>): Retriever => ({
  name: "fixed",
  search: async (query, k) => (ranking[query] ?? []).slice(0, k).map((index, i) => ({ index, score: 10 - i })),
});

test("evaluation counts hits, distinct passages, overlapping top-k and near-duplicates per query", async () => {
  const queries = [
    { id: "q1", text: "q1", gold: [{ doc: "d", start: 35, end: 40 }] }, // inside chunks 0 and 1
    { id: "q2", text: "q2", gold: [{ doc: "d", start: 65, end: 75 }] }, // straddles the 70 seam: never fully inside
    {
      id: "q3",
      text: "q3",
      gold: [
        { doc: "e", start: 10, end: 20 },
        { doc: "d", start: 80, end: 90 },
      ],
    },
  ];
  const retriever = fixed({ q1: [0, 1, 2], q2: [1, 2], q3: [2] });
  const outcomes = await evaluateQueries(chunks, queries, retriever, { k: 3 });
  assert.deepEqual(
    outcomes.map((o) => o.hit),
    [true, false, true],
  );
  assert.deepEqual(
    outcomes.map((o) => o.goldFound),
    [1, 0, 1],
  );
  assert.deepEqual(
    outcomes.map((o) => o.distinct),
    [2, 2, 1],
  );
  assert.deepEqual(
    outcomes.map((o) => o.overlapping),
    [true, false, false],
  );
  assert.deepEqual(
    outcomes.map((o) => o.nearDuplicates),
    [1, 0, 0],
  );
  // q2: chunks [30,70) and [70,100) cover all of [65,75): char recall 1 though no single chunk holds it
  assert.equal(outcomes[1].merged.recall, 1);
  assert.equal(outcomes[1].merged.precision, 10 / 70);
  const summary = summarizeOutcomes(outcomes, { retriever: "fixed", k: 3, chunks: chunks.length });
  assert.equal(summary.hits, 2);
  assert.equal(summary.hitRate, 2 / 3);
  assert.equal(summary.recallAtK, (1 + 0 + 0.5) / 3);
  assert.equal(summary.goldSpans, 4);
  assert.equal(summary.goldSpansFound, 2);
  assert.equal(summary.meanDistinct, 5 / 3);
  assert.equal(summary.queriesWithOverlappingTopK, 1 / 3);
  assert.equal(summary.nearDuplicateRatio, 1 / 6);
  assert.ok(summary.hitRateCI.low < 2 / 3 && summary.hitRateCI.high > 2 / 3);
});

test("index ratio is chunk characters over corpus characters", () => {
  assert.equal(
    indexRatio(
      [
        { id: "d", text },
        { id: "e", text: text.slice(0, 50) },
      ],
      chunks,
    ),
    (16 + 16 + 13 + 8) / 150,
  );
});

test("the retriever factory builds bm25 by name, accepts registered retrievers and names unknown ones", async () => {
  const bm25 = await createRetriever("bm25", chunks, { k1: 1.2, b: 0.75 });
  assert.match(bm25.name, /^bm25\(k1=1\.2,b=0\.75/);
  assert.deepEqual(
    (await bm25.search("delta", 5)).map((r) => r.index),
    [2],
  );
  registerRetriever("always-first", () => fixed({ x: [3] }));
  assert.deepEqual(
    (await (await createRetriever("always-first", chunks)).search("x", 5)).map((r) => r.index),
    [3],
  );
  await assert.rejects(createRetriever("no-such-retriever", chunks), /unknown retriever "no-such-retriever"/);
});
