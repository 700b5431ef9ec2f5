import { test } from "node:test";
import assert from "node:assert/strict";
import { gridVerdicts, pricesPerPoint, sweepConfigs } from "../../src/experiment/sweep";
import type { CostedRow } from "../../src/experiment/run";

function row(size: number, overlap: number, hits: string, chunks: number, tokens: number): CostedRow {
  const h = [...hits].filter((c) => c === "1").length;
  return {
    label: `window ${size}/${overlap}`,
    key: `${size}/${overlap}`,
    config: { splitter: { splitter: "window", size, overlap, unit: "chars" }, retrieval: { k: 5, finalK: 5 } },
    seams: { chunks },
    retrieval: { hitRate: h / hits.length },
    tokensEmbedded: tokens,
    hits,
    cost: { storageBytes: chunks * 6144, tokensEmbedded: tokens, embeddingCost: (tokens / 1e6) * 0.13 },
  } as unknown as CostedRow;
}

test("sweep configs cross every size with its own resolved overlaps", () => {
  const spec = { splitter: "window", size: 500, sizes: [500, 2000], overlaps: [0, { percent: 10 }] };
  const configs = sweepConfigs({ ...spec, contextBudget: null });
  assert.deepEqual(
    configs.map((c) => [c.splitter.size, c.splitter.overlap]),
    [
      [500, 0],
      [500, 50],
      [2000, 0],
      [2000, 200],
    ],
  );
  // By default several sizes are judged at an equal context budget too: 500 x 5 = 2500 characters.
  const budgeted = sweepConfigs(spec);
  assert.deepEqual(budgeted.slice(0, 4), configs);
  assert.deepEqual(
    budgeted.slice(4).map((c) => [c.splitter.size, c.splitter.overlap, c.retrieval.contextBudget]),
    configs.map((c) => [c.splitter.size, c.splitter.overlap, { amount: 2500, unit: "chars" }]),
  );
});

test("the grid verdict picks over size x overlap by vectors stored, and prices each extra point", () => {
  // 400 queries (enough for two agreeing configs to be shown within a point). Size 500 loses 60 queries; size 1000
  // at overlap 0 and 100 are equal and fewer vectors at 0.
  const good = "1".repeat(200) + "0".repeat(200);
  const poor = "0".repeat(60) + "1".repeat(140) + "0".repeat(200);
  const rows = [
    row(500, 0, poor, 400, 100_000),
    row(500, 50, poor, 440, 110_000),
    row(1000, 0, good, 200, 100_000),
    row(1000, 100, good, 220, 110_000),
  ];
  const [grid] = gridVerdicts(rows);
  assert.equal(grid.decision.verdict, "decided");
  assert.equal(grid.rows[grid.decision.choice].key, "1000/0");
  assert.equal(grid.decision.configs[0].status, "worse");
  // Cheapest by vectors is 1000/0 itself: nothing is better than it, so nothing has a price.
  assert.deepEqual(grid.prices, []);
  // Priced against 500/0: +15 points for 200 fewer vectors and no extra tokens.
  const [first] = pricesPerPoint(rows, 0).filter((p) => p.index === 2);
  assert.ok(Math.abs(first.points - 15) < 1e-9);
  assert.equal(first.extraVectorBytes, -200 * 6144);
  assert.ok(Math.abs(first.bytesPerPoint - (-200 * 6144) / 15) < 1e-6);
  assert.equal(first.extraTokens, 0);
});

test("a single-size sweep has no grid verdict", () => {
  const hits = "10".repeat(20);
  assert.deepEqual(gridVerdicts([row(500, 0, hits, 10, 10), row(500, 50, hits, 11, 11)]), []);
});
