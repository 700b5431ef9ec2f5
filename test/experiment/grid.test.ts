import { test } from "node:test";
import assert from "node:assert/strict";
import { describeConfig, expandGrid, normalizeConfig, splitterKey } from "../../src/experiment/grid";
import { cacheKey } from "../../src/experiment/cache";
import { SeamlabError } from "../../src/core/errors";

test("expandGrid crosses splitters, sizes, units, overlaps, ks and rerankers in that order", () => {
  const configs = expandGrid({
    splitters: ["window", "langchain"],
    sizes: [500],
    overlaps: [0, 100],
    ks: [5, 10],
    finalK: 3,
    rerankers: ["none", "mmr"],
  });
  assert.equal(configs.length, 2 * 1 * 2 * 2 * 2);
  assert.deepEqual(configs[0], {
    splitter: { splitter: "window", size: 500, overlap: 0, unit: "chars" },
    retrieval: {
      k: 5,
      finalK: 3,
      reranker: "none",
      rerankerOptions: undefined,
      retriever: "bm25",
      retrieverSettings: undefined,
    },
  });
  assert.deepEqual(configs.slice(0, 5).map(describeConfig), [
    "window 500/0 chars, k=5@3",
    "window 500/0 chars, k=5 -> mmr@3",
    "window 500/0 chars, k=10@3",
    "window 500/0 chars, k=10 -> mmr@3",
    "window 500/100 chars, k=5@3",
  ]);
  assert.equal(configs[8].splitter.splitter, "langchain");
});

test("expandGrid refuses an overlap that is not smaller than the size", () => {
  assert.throws(
    () => expandGrid({ splitters: ["window"], sizes: [100], overlaps: [0, 100] }),
    (e: unknown) => e instanceof SeamlabError && /overlap 100/.test(e.message),
  );
  assert.throws(() => expandGrid({ splitters: [], sizes: [100], overlaps: [0] }), /splitters/);
});

test("normalized configs written differently get the same cache key", () => {
  const a = normalizeConfig({
    splitter: { splitter: "tokens", size: 100, overlap: 0, unit: "tokens" },
    retrieval: { k: 5 },
  });
  const b = normalizeConfig({
    retrieval: { reranker: "none", finalK: 5, k: 5, retriever: "bm25" },
    splitter: { overlap: 0, encoding: "cl100k_base", unit: "tokens", size: 100, splitter: "tokens" },
  });
  const key = (config: unknown) => cacheKey({ corpusHash: "c", queriesHash: "q", config, version: "1" });
  assert.equal(key(a), key(b));
  assert.equal(splitterKey(a), splitterKey(b));
});

test("normalizeConfig rejects a final k larger than the first-stage k", () => {
  assert.throws(
    () => normalizeConfig({ splitter: { splitter: "window", size: 10, overlap: 0 }, retrieval: { k: 3, finalK: 5 } }),
    /final k/,
  );
  assert.throws(
    () => normalizeConfig({ splitter: { splitter: "window", size: 10, overlap: 0 }, retrieval: { k: 0 } }),
    /k must be/,
  );
});
