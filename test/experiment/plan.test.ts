import { test } from "node:test";
import assert from "node:assert/strict";
import { expandGrid } from "../../src/experiment/grid";
import { checkedConfigs, planGrid } from "../../src/experiment/plan";
import type { GridRow } from "../../src/experiment/rows";
import { SeamlabError } from "../../src/core/errors";

const configs = expandGrid({ splitters: ["window"], sizes: [400], overlaps: [0, 100], ks: [3, 5] });
const keysOf = (list: typeof configs) => list.map((c) => JSON.stringify(c));

test("a plan answers cached keys from the cache and bundles the rest by splitter config", () => {
  const keys = keysOf(configs);
  const stored = new Map([[keys[1], { key: keys[1] } as GridRow]]);
  const plan = planGrid(configs, keys, (key) => stored.get(key));
  assert.equal(plan.cached, 1);
  assert.equal(plan.rows[1]?.key, keys[1]);
  // overlap 0 (k=3, k=5): config 1 is cached, so only config 0 is left; overlap 100 (k=3, k=5) is one task.
  assert.deepEqual(
    plan.tasks.map((t) => [...t].sort()),
    [[2, 3], [0]],
  );
});

test("a cached row stored under another key is not trusted", () => {
  const keys = keysOf(configs);
  const plan = planGrid(configs, keys, () => ({ key: "something else" }) as GridRow);
  assert.equal(plan.cached, 0);
  assert.equal(plan.tasks.flat().length, configs.length);
});

test("a repeated config is computed once and filled from its first occurrence", () => {
  const repeated = [configs[0], configs[1], configs[0]];
  const plan = planGrid(repeated, keysOf(repeated), () => undefined);
  assert.deepEqual([...plan.duplicateOf], [[2, 0]]);
  assert.deepEqual(plan.tasks, [[0, 1]]);
});

test("token windows of one encoding share a task, and heavier tasks come first", () => {
  const mixed = [
    ...expandGrid({ splitters: ["window"], sizes: [400], overlaps: [0] }),
    ...expandGrid({ splitters: ["tokens"], sizes: [100, 200], overlaps: [0, 50] }),
  ];
  const plan = planGrid(mixed, keysOf(mixed), () => undefined);
  assert.equal(plan.tasks.length, 2);
  assert.deepEqual(plan.tasks[0], [1, 2, 3, 4]);
  assert.deepEqual(plan.tasks[1], [0]);
});

test("checkedConfigs refuses an unknown reranker before anything runs", () => {
  assert.throws(
    () => checkedConfigs({ splitters: ["window"], sizes: [400], overlaps: [0], rerankers: ["nope"] }),
    SeamlabError,
  );
});
