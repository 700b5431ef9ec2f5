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

test("token windows stay in one task while other work fills the threads, and spread over the threads when they are the grid", () => {
  const tokenSweep = expandGrid({ splitters: ["tokens"], sizes: [200], overlaps: [0, 20, 40, 60, 80, 100] });
  const keys = keysOf(tokenSweep);
  const all = tokenSweep.map((_, i) => i);
  assert.equal(planGrid(tokenSweep, keys, () => undefined, 1).tasks.length, 1, "one thread: one task");
  const two = planGrid(tokenSweep, keys, () => undefined, 2).tasks;
  assert.equal(two.length, 2, "two threads: two tasks of three overlaps each");
  assert.deepEqual(two.map((t) => t.length).sort(), [3, 3]);
  assert.deepEqual(
    two.flat().sort((a, b) => a - b),
    all,
    "every config exactly once",
  );
  assert.equal(planGrid(tokenSweep, keys, () => undefined, 16).tasks.length, 6, "never more tasks than configs");
  // Three token windows beside 26 character configs (the bench:study grid): one task, one tokenizer warm-up.
  const study = [
    ...expandGrid({ splitters: ["tokens"], sizes: [1000], overlaps: [0, 200, 500] }),
    ...expandGrid({ splitters: ["window", "langchain"], sizes: [1000], overlaps: [0, 50, 100, 200, 300, 400, 500] }),
    ...expandGrid({
      splitters: ["recursive", "sentences", "tail", "window-words"],
      sizes: [1000],
      overlaps: [0, 200, 500],
    }),
  ];
  const plan = planGrid(study, keysOf(study), () => undefined, 2);
  assert.deepEqual(plan.tasks[0], [0, 1, 2], "the token bundle is the heaviest task and goes first");
  // The token bundle, the LangChain bundle, and one task for each of the other 19 splitter configs.
  assert.equal(plan.tasks.length, 2 + (study.length - 3 - 7));
});

test("LangChain's configs share a task (one helper thread) beside other work on several threads, and not alone", () => {
  const study = [
    ...expandGrid({ splitters: ["langchain"], sizes: [1000], overlaps: [0, 50, 100, 200, 300, 400, 500] }),
    ...expandGrid({ splitters: ["window", "recursive", "tail"], sizes: [1000], overlaps: [0, 100, 200, 300, 500] }),
  ];
  const plan = planGrid(study, keysOf(study), () => undefined, 2);
  const langchain = [0, 1, 2, 3, 4, 5, 6];
  assert.deepEqual(
    plan.tasks.find((t) => t.includes(0)),
    langchain,
    "every LangChain config in one task",
  );
  assert.equal(plan.tasks.length, 1 + 15);
  assert.deepEqual(
    plan.tasks.flat().sort((a, b) => a - b),
    study.map((_, i) => i),
    "every config exactly once",
  );
  // A LangChain sweep alone, or on one thread, keeps one task per config (each row cached as soon as it is done).
  assert.equal(planGrid(study.slice(0, 7), keysOf(study.slice(0, 7)), () => undefined, 2).tasks.length, 7);
  assert.equal(planGrid(study, keysOf(study), () => undefined, 1).tasks.length, study.length);
  // The task holding the first config, when `helpers` (4 configs) are planned beside plain splitters on 2 threads.
  const firstTaskBesidePlainWork = (helpers: string[]) => {
    const grid = [
      ...expandGrid({ splitters: helpers, sizes: [1000], overlaps: [0, 200] }),
      ...expandGrid({ splitters: ["window", "tail", "recursive"], sizes: [1000], overlaps: [0, 100, 200, 300, 500] }),
    ];
    return planGrid(grid, keysOf(grid), () => undefined, 2).tasks.find((t) => t.includes(0));
  };
  // Library splitters share their own helper: one task beside other work.
  assert.deepEqual(firstTaskBesidePlainWork(["mastra-recursive", "chonkie-recursive"]), [0, 1, 2, 3]);
  // LangChain and the libraries run in the same helper worker: one warm-up, one task.
  assert.deepEqual(firstTaskBesidePlainWork(["langchain", "mastra-recursive"]), [0, 1, 2, 3]);
});

test("checkedConfigs refuses an unknown reranker before anything runs", () => {
  assert.throws(
    () => checkedConfigs({ splitters: ["window"], sizes: [400], overlaps: [0], rerankers: ["nope"] }),
    SeamlabError,
  );
});
