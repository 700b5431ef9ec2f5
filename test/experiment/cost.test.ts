import { test } from "node:test";
import assert from "node:assert/strict";
import { costOf, costsWithRatios } from "../../src/experiment/cost";

test("cost of a config is tokens times price per million and chunks times dims times bytes", () => {
  // Hand-computed: 2,500,000 tokens at 0.13 per million = 0.325; 3,000 chunks x 1536 dims x 4 bytes = 18,432,000 bytes.
  const cost = costOf(3000, 2_500_000, { pricePerMillionTokens: 0.13 });
  assert.ok(Math.abs(cost.embeddingCost - 0.325) < 1e-12);
  assert.equal(cost.storageBytes, 18_432_000);
  assert.equal(costOf(10, 0, { dims: 768, bytesPerDim: 1 }).storageBytes, 7680);
});

test("cost ratios are taken against the zero-overlap config of the same family", () => {
  // The seed article's chunk counts: 2412 chunks at overlap 0, 3015 at 200.
  const rows = [
    { group: "window/1000", overlap: 0, chunks: 2412, tokensEmbedded: 600_000 },
    { group: "window/1000", overlap: 200, chunks: 3015, tokensEmbedded: 750_000 },
    { group: "langchain/1000", overlap: 200, chunks: 2000, tokensEmbedded: 500_000 },
  ];
  const costs = costsWithRatios(rows, (r) => r);
  assert.equal(costs[0].storageRatio, 1);
  assert.ok(Math.abs((costs[1].storageRatio as number) - 3015 / 2412) < 1e-12);
  assert.equal(costs[1].tokensRatio, 1.25);
  assert.equal(costs[1].costRatio, 1.25);
  assert.equal(costs[2].tokensRatio, null, "no overlap-0 baseline for langchain");
});

test("cost model rejects a negative price", () => {
  assert.throws(() => costOf(1, 1, { pricePerMillionTokens: -1 }), /pricePerMillionTokens/);
});
