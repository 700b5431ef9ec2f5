import { test } from "node:test";
import assert from "node:assert/strict";
import { fitLsa } from "../../src/embed/lsa";
import { createDenseRetriever } from "../../src/retrieval/dense";
import type { CostedRow } from "../../src/experiment/run";
import type { SweepResult } from "../../src/experiment/sweep";
import { embedderNameOf, lsaSpec } from "../../src/study/dense";
import { hitRateRows } from "../../src/study/sweep";
import { bestHitRateRow, depthHeatmapRows } from "../../src/study/redundancy";
import { evaluateRetrievers, evaluationLabel, recallRows } from "../../src/study/labelled";

const texts = [
  "Whales swim in the cold ocean and sing long songs.",
  "The harpoon is thrown from the boat at the whale.",
  "Routes are declared with a method, a url and a handler.",
  "Plugins register hooks and decorators on the server instance.",
];

test("the embedder named on a chart is the lsa model's own name, recovered from the dense retriever's name", async () => {
  const embedder = fitLsa(texts, { dimensions: 2 });
  const retriever = await createDenseRetriever(texts, embedder);
  assert.equal(embedderNameOf(retriever.name, 2), embedder.name);
  assert.match(
    embedderNameOf(retriever.name, 2),
    /^lsa-\d+ \(TF-IDF\+SVD fitted on this corpus.*not a neural model\)$/,
  );
});

test("a retriever name without an lsa rank falls back to the requested dimensions, still saying it is not neural", () => {
  const name = embedderNameOf(
    "bm25 top-10 -> dense(lsa (TF-IDF+SVD fitted on each config's chunks; not a neural model))",
    128,
  );
  assert.equal(name, "lsa-128 requested (TF-IDF+SVD fitted on each config's chunks; not a neural model)");
  assert.deepEqual(lsaSpec(64), { kind: "lsa", dimensions: 64 });
});

test("hit-rate rows take their series from the labels given, else from the splitter", () => {
  const result = (splitter: string, y: number) =>
    ({ curves: [{ splitter, points: [{ x: 0, y, low: y - 0.1, high: y + 0.1 }] }] }) as unknown as SweepResult;
  const rows = hitRateRows([result("langchain", 0.6), result("langchain", 0.5)], ["BM25", "dense (lsa)"]);
  assert.deepEqual(
    rows.map((r) => [r.series, r.y]),
    [
      ["BM25", 0.6],
      ["dense (lsa)", 0.5],
    ],
  );
  assert.equal(hitRateRows([result("window", 0.4)])[0].series, "window");
});

test("heatmap rows are named by their reranker, and the best row is the first of equal hit rates", () => {
  const row = (overlap: number, k: number, reranker: string, hitRate: number) =>
    ({
      config: { splitter: { overlap }, retrieval: { k, finalK: 5, reranker } },
      retrieval: { hitRate, meanDistinct: 4 },
    }) as unknown as CostedRow;
  const rows = [row(0, 10, "mmr", 0.6), row(0, 10, "dense", 0.55), row(100, 20, "dense", 0.6)];
  assert.deepEqual(
    depthHeatmapRows(rows, "hitRate").map((c) => [c.x, c.y, c.value]),
    [
      ["0", "top-10 -> mmr -> 5", 0.6],
      ["0", "top-10 -> dense -> 5", 0.55],
      ["100", "top-20 -> dense -> 5", 0.6],
    ],
  );
  assert.equal(bestHitRateRow(rows), rows[0]);
});

test("one config is scored with BM25, dense lsa and hybrid, each row labelled by its retriever", async () => {
  // Two topics, two chunks each; lsa keeps only words that occur in more than one chunk, so they repeat.
  const topics = [
    "Whales swim in the ocean. Whales sing in the ocean.",
    "The whale boat hunts whales in the ocean.",
    "Plugins register hooks on the server. Hooks run in plugins.",
    "The server runs plugins and hooks for each request.",
  ];
  const docs = [{ id: "a.md", text: topics.join("\n\n") }];
  const start = docs[0].text.indexOf("Plugins register");
  const queries = [
    { id: "q", text: "plugins register hooks on a server", gold: [{ doc: "a.md", start, end: start + 36 }] },
  ];
  const evaluations = await evaluateRetrievers(docs, queries, { splitter: "recursive", size: 80, overlap: 0 }, 2, 4);
  assert.deepEqual(evaluations.map(evaluationLabel), ["BM25", "dense (lsa)", "hybrid (RRF)"]);
  assert.match(evaluations[1].summary.retriever, /^dense\(lsa-\d+ \(TF-IDF\+SVD/);
  assert.match(evaluations[2].summary.retriever, /^hybrid\(rrf k=60/);
  assert.deepEqual(
    evaluations.map((e) => e.summary.chunks),
    [4, 4, 4],
  );
  // Only the two plugin chunks share the query's words: each retriever's top-2 is those two, so each hits.
  assert.deepEqual(
    recallRows(evaluations).map((r) => r.value),
    [1, 1, 1],
  );
});
