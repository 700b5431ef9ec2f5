import { test } from "node:test";
import assert from "node:assert/strict";
import type { Doc } from "../../src/core/types";
import { measureChunkSizes } from "../../src/measure/sizes";
import { measureParagraphBudget } from "../../src/measure/paragraphs";
import { span } from "./helpers";

test("chunk sizes report the distribution, chunks over the limit and the index ratio", () => {
  const doc: Doc = { id: "d", text: "0123456789" };
  const sizes = measureChunkSizes([doc], [span(doc, 0, 6), span(doc, 4, 10), span(doc, 8, 10)], { limit: 5 });
  assert.deepEqual([sizes.lengths.min, sizes.lengths.median, sizes.maxChunkLength], [2, 6, 6]);
  assert.equal(sizes.chunksOverLimit, 2);
  assert.equal(sizes.indexRatio, 14 / 10);
});

test("a length function measures chunks in another unit", () => {
  const doc: Doc = { id: "d", text: "a b c d" };
  const sizes = measureChunkSizes([doc], [span(doc, 0, 7)], { limit: 3, lengthOf: (t) => t.split(" ").length });
  assert.equal(sizes.maxChunkLength, 4);
  assert.equal(sizes.chunksOverLimit, 1);
});

test("paragraph budget counts the paragraphs longer than the overlap", () => {
  const doc: Doc = { id: "d", text: "x".repeat(5) + "\n\n" + "y".repeat(10) + "\n\n" + "z".repeat(300) };
  const budget = measureParagraphBudget([doc], 200);
  assert.equal(budget.paragraphs, 3);
  assert.equal(budget.overBudget, 1);
  assert.ok(Math.abs(budget.overBudgetPct - 100 / 3) < 1e-9);
  assert.equal(budget.lengths.median, 10);
});
