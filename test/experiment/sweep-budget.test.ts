import { test } from "node:test";
import assert from "node:assert/strict";
import { runOverlapSweep, sweepConfigs } from "../../src/experiment/sweep";
import { SeamlabError } from "../../src/core/errors";
import type { Doc, Query } from "../../src/core/types";

/** Documents of numbered sentences with words of their own, and one query per fifth sentence (gold: that sentence). */
function corpus(): { docs: Doc[]; queries: Query[] } {
  const docs: Doc[] = [];
  const queries: Query[] = [];
  for (let d = 0; d < 6; d++) {
    let text = "";
    for (let s = 0; s < 40; s++) {
      const sentence = `Sentence d${d}s${s} tells alpha${d}x${s} beta${d}y${s} and common filler words here. `;
      if (s % 5 === 2) {
        queries.push({
          id: `q${d}-${s}`,
          text: `alpha${d}x${s} beta${d}y${s} filler`,
          gold: [{ doc: `doc${d}`, start: text.length, end: text.length + sentence.length - 1 }],
        });
      }
      text += sentence;
    }
    docs.push({ id: `doc${d}`, text });
  }
  return { docs, queries };
}

const options = { workers: 0, quiet: true, cacheDir: null, metric: "hitRate" as const };

test("a sweep over sizes is judged at an equal context budget, with plain hit@k and both costs beside it", async () => {
  const inputs = corpus();
  const spec = { splitter: "window", size: 200, sizes: [200, 800], overlaps: [0, 50], ks: [2] };
  const result = await runOverlapSweep(inputs, spec, options);
  // Default budget: the median (lower middle) size x k = 200 x 2 = 400, at least the largest size: 800.
  const [grid] = result.grids;
  assert.deepEqual(grid.contextBudget, { amount: 800, unit: "chars" });
  assert.equal(result.rows.length, 8); // 4 configs at plain hit@2, the same 4 at the budget
  assert.ok(grid.rows.every((row) => row.config.retrieval.contextBudget?.amount === 800));
  assert.ok(result.curves.every((curve) => curve.contextBudget?.amount === 800));
  for (const [i, row] of grid.rows.entries()) {
    // Every context fits the budget, and the costs are the row's own.
    assert.ok(grid.costs[i].promptChars <= 800, `${row.label}: ${grid.costs[i].promptChars}`);
    assert.equal(grid.costs[i].vectors, row.seams.chunks);
    assert.ok((grid.costs[i].promptTokens as number) > 0);
    const plain = result.rows.find(
      (r) =>
        r.config.retrieval.contextBudget === undefined &&
        r.config.splitter.size === row.config.splitter.size &&
        r.config.splitter.overlap === row.config.splitter.overlap,
    );
    assert.equal(grid.plainHitRates?.[i], plain?.retrieval.hitRate);
  }
  // Size 200 at overlap 0 gets about 800 / 200 = 4 chunks where plain hit@2 gave it 2: never fewer hits.
  const small = grid.rows.findIndex((r) => r.config.splitter.size === 200 && r.config.splitter.overlap === 0);
  assert.ok(grid.rows[small].retrieval.meanContextChunks > 2);
  assert.ok(grid.decision.configs[small].rate >= (grid.plainHitRates?.[small] as number));
  // Size 800 gets about one chunk at the budget instead of two (a short last chunk of a document leaves room).
  const large = grid.rows.findIndex((r) => r.config.splitter.size === 800 && r.config.splitter.overlap === 0);
  assert.ok(grid.rows[large].retrieval.meanContextChunks < 2);
});

test("off gives plain hit@k; a budget too small, or with several depths, is refused before any work", () => {
  const spec = { splitter: "window", size: 200, sizes: [200, 800], overlaps: [0] };
  assert.ok(sweepConfigs({ ...spec, contextBudget: null }).every((c) => c.retrieval.contextBudget === undefined));
  const refused = (e: Error) => e instanceof SeamlabError && /--context-budget/.test(e.message);
  assert.throws(() => sweepConfigs({ ...spec, contextBudget: { amount: 799, unit: "chars" } }), refused);
  assert.throws(() => sweepConfigs({ ...spec, ks: [5, 10], contextBudget: { amount: 5000, unit: "chars" } }), refused);
  // Several depths without a budget given: plain hit@k, as before (a budget would make the depths moot).
  assert.ok(sweepConfigs({ ...spec, ks: [5, 10] }).every((c) => c.retrieval.contextBudget === undefined));
});

test("a budget on one size is honoured too, and its rows are cached apart from plain hit@k", () => {
  const spec = { splitter: "window", size: 200, overlaps: [0], contextBudget: { amount: 600, unit: "chars" as const } };
  const configs = sweepConfigs(spec);
  assert.equal(configs.length, 2);
  assert.notDeepEqual(configs[0], configs[1]); // the config is the cache key's part: the two never share a row
});

test("overlap, neighbours and parents are judged on the same queries at one budget, levers at overlap 0's index", async () => {
  const inputs = corpus();
  const spec = { splitter: "window", size: 200, overlaps: [0, 50], ks: [2], expand: [0, 1], parents: [400] };
  const result = await runOverlapSweep(inputs, spec, options);
  // Default budget with levers on one size: 200 x 2 = 400 characters.
  const [lever] = result.levers;
  assert.deepEqual(lever.contextBudget, { amount: 400, unit: "chars" });
  assert.deepEqual(lever.names, [
    "overlap 0",
    "overlap 0 + ±1 neighbours",
    "overlap 0 + 400-char parents",
    "overlap 50",
  ]);
  assert.equal(lever.decision.queries, inputs.queries.length);
  lever.costs.forEach((cost) => assert.ok(cost.promptChars <= 400));
  // Neighbours and parents index what overlap 0 indexes; overlap 50 stores more vectors.
  assert.equal(lever.costs[1].storageBytes, lever.costs[0].storageBytes);
  assert.equal(lever.costs[2].storageBytes, lever.costs[0].storageBytes);
  assert.ok(lever.costs[3].storageBytes > lever.costs[0].storageBytes);
  // The overlap curve holds the overlap rows only.
  assert.deepEqual(
    result.curves.map((curve) => curve.points.map((p) => p.overlap)),
    [[0, 50]],
  );
});

test("levers without a possible budget are refused before any work", () => {
  const spec = { splitter: "window", size: 200, overlaps: [0], expand: [1] };
  const refused = (e: Error) => e instanceof SeamlabError && /--expand and --parents/.test(e.message);
  assert.throws(() => sweepConfigs({ ...spec, ks: [2, 5] }), refused);
  assert.throws(() => sweepConfigs({ ...spec, contextBudget: null }), refused);
});
