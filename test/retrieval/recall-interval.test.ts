import { test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk, Query } from "../../src/core/types";
import { evaluateQueries, summarizeOutcomes } from "../../src/retrieval/evaluate";
import type { Retriever } from "../../src/retrieval/types";
import { wilsonInterval } from "../../src/stats/proportion";

const chunks: Chunk[] = [
  { doc: "d", start: 0, end: 10, text: "aaaaaaaaaa" },
  { doc: "d", start: 10, end: 20, text: "bbbbbbbbbb" },
];
// Always ranks chunk 0 first: a gold span inside [0, 10) is a hit, one inside [10, 20) is not at k = 1.
const firstChunk: Retriever = { name: "first", search: () => [{ index: 0, score: 1 }] };
const query = (id: string, gold: [number, number][]): Query => ({
  id,
  text: id,
  doc: "d",
  gold: gold.map(([start, end]) => ({ doc: "d", start, end })),
});

async function summary(queries: Query[]) {
  const outcomes = await evaluateQueries(chunks, queries, firstChunk, { k: 1 });
  return summarizeOutcomes(outcomes, { retriever: "first", k: 1, chunks: chunks.length });
}

test("recall@k with one gold span per query gets the hit rate's Wilson interval, not a degenerate bootstrap", async () => {
  const one = await summary([query("q", [[2, 5]])]);
  assert.equal(one.recallAtK, 1);
  assert.deepEqual(one.recallAtKCI, one.hitRateCI);
  assert.ok(one.recallAtKCI.low < 0.25, `one query cannot pin recall at 100%: ${JSON.stringify(one.recallAtKCI)}`);
  const three = await summary([query("a", [[2, 5]]), query("b", [[12, 15]]), query("c", [[1, 3]])]);
  assert.deepEqual(three.recallAtKCI, wilsonInterval(2, 3));
});

test("recall@k with a query holding several gold spans keeps the bootstrap interval of the mean", async () => {
  const s = await summary([
    query("a", [
      [2, 5],
      [12, 15],
    ]),
    query("b", [[1, 3]]),
  ]);
  assert.equal(s.recallAtK, 0.75);
  assert.notDeepEqual(s.recallAtKCI, wilsonInterval(1, 2));
  assert.ok(s.recallAtKCI.low <= 0.75 && 0.75 <= s.recallAtKCI.high);
});
