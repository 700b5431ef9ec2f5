import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkContextBudget,
  defaultContextBudget,
  evaluateWithinBudget,
  parseContextBudget,
  rankWithinBudget,
  takeWithinBudget,
} from "../../src/retrieval/context-budget";
import { SeamlabError } from "../../src/core/errors";
import type { Chunk, Query } from "../../src/core/types";
import type { Retriever } from "../../src/retrieval/types";

test("the context is the longest ranked prefix that fits, stopping at the first chunk that does not", () => {
  // 400 + 300 = 700 fits in 1000; adding 500 would make 1200. The 100 after it is not slipped in.
  assert.equal(takeWithinBudget([400, 300, 500, 100], 1000), 2);
  assert.equal(takeWithinBudget([400, 300, 300], 1000), 3); // exactly full
  assert.equal(takeWithinBudget([1200, 10], 1000), 0); // the top chunk alone is too long
  assert.equal(takeWithinBudget([], 1000), 0);
});

test("a budget reads as a size in the sizes' unit, or says its own unit", () => {
  assert.deepEqual(parseContextBudget("5000", "chars"), { amount: 5000, unit: "chars" });
  assert.deepEqual(parseContextBudget("512", "tokens"), { amount: 512, unit: "tokens" });
  assert.deepEqual(parseContextBudget("1200t", "chars"), { amount: 1200, unit: "tokens" });
  assert.deepEqual(parseContextBudget("1,200 tokens", "chars"), { amount: 1200, unit: "tokens" });
  assert.deepEqual(parseContextBudget("4000c", "tokens"), { amount: 4000, unit: "chars" });
  assert.equal(parseContextBudget("off", "chars"), null);
  for (const bad of ["", "0", "-5", "5k", "1.5t", "tokens"]) {
    assert.throws(
      () => parseContextBudget(bad, "chars"),
      (e: Error) => e instanceof SeamlabError && /--context-budget/.test(e.message),
    );
  }
});

test("the default budget is the median size times k, at least the largest size", () => {
  assert.deepEqual(defaultContextBudget([500, 1000, 2000], 5, "chars"), { amount: 5000, unit: "chars" });
  // Even count: the lower middle size (a swept one), 500 x 5.
  assert.deepEqual(defaultContextBudget([2000, 250, 500, 1000], 5, "chars"), { amount: 2500, unit: "chars" });
  // 200 x 5 = 1000 cannot hold one 4000-character chunk: the largest size instead.
  assert.deepEqual(defaultContextBudget([100, 200, 4000], 5, "chars"), { amount: 4000, unit: "chars" });
});

test("a budget below one chunk of the largest size is refused, naming the flag and the least that works", () => {
  assert.doesNotThrow(() => checkContextBudget({ amount: 2000, unit: "chars" }, [500, 2000], "chars"));
  assert.throws(
    () => checkContextBudget({ amount: 1999, unit: "chars" }, [500, 2000], "chars"),
    (e: Error) =>
      e instanceof SeamlabError && /--context-budget 1,999 chars/.test(e.message) && /2000c/.test(e.message),
  );
  // Tokens against sizes in characters: 2000 chars is about 500 tokens.
  assert.doesNotThrow(() => checkContextBudget({ amount: 500, unit: "tokens" }, [2000], "chars"));
  assert.throws(() => checkContextBudget({ amount: 499, unit: "tokens" }, [2000], "chars"), /500t/);
});

/** A retriever that ranks chunks in a fixed order per query and counts the depths asked. */
function fixedRetriever(order: Record<string, number[]>, asked: number[]): Retriever {
  return {
    name: "fixed",
    search(query, k) {
      asked.push(k);
      return order[query].slice(0, k).map((index, i) => ({ index, score: -i }));
    },
  };
}

test("a ranking too shallow to fill the budget is asked again deeper", async () => {
  const asked: number[] = [];
  const retriever = fixedRetriever({ q: [5, 4, 3, 2, 1, 0] }, asked);
  // Every chunk is 100 long: 350 holds three. The first depth, 2, fits whole, so depth 4 is asked.
  const ranked = await rankWithinBudget(
    retriever,
    ["q"],
    (top) =>
      takeWithinBudget(
        top.map(() => 100),
        350,
      ),
    6,
    2,
  );
  assert.deepEqual(ranked, [[5, 4, 3]]);
  assert.deepEqual(asked, [2, 4]);
  // A retriever with fewer results than asked has nothing more: the context is all it found.
  const short = await rankWithinBudget(
    fixedRetriever({ q: [1] }, []),
    ["q"],
    (top) =>
      takeWithinBudget(
        top.map(() => 100),
        1000,
      ),
    6,
    2,
  );
  assert.deepEqual(short, [[1]]);
});

test("at an equal budget a query is a hit when its gold span lies inside one chunk of the context", async () => {
  const text = "a".repeat(3000);
  const chunks: Chunk[] = [
    { doc: "d", start: 0, end: 1000, text: text.slice(0, 1000) },
    { doc: "d", start: 1000, end: 2000, text: text.slice(1000, 2000) },
    { doc: "d", start: 2000, end: 2500, text: text.slice(2000, 2500) },
  ];
  const queries: Query[] = [
    { id: "first", text: "q1", gold: [{ doc: "d", start: 1200, end: 1300 }] },
    { id: "third", text: "q2", gold: [{ doc: "d", start: 2100, end: 2200 }] },
  ];
  const retriever = fixedRetriever({ q1: [0, 1, 2], q2: [0, 1, 2] }, []);
  // 2000 characters hold chunks 0 and 1 (1000 + 1000); chunk 2 would make 2500.
  const outcomes = await evaluateWithinBudget(chunks, queries, retriever, {
    budget: { amount: 2000, unit: "chars" },
    lengthOf: (i) => chunks[i].text.length,
    tokensOf: (i) => chunks[i].text.length / 4,
  });
  assert.deepEqual(
    outcomes.map((o) => [o.id, o.hit, o.ranked, o.contextChars, o.contextTokens]),
    [
      ["first", true, [0, 1], 2000, 500],
      ["third", false, [0, 1], 2000, 500],
    ],
  );
});
