import { test } from "node:test";
import assert from "node:assert/strict";
import { seamText } from "../../src/measure/seam-text";

const text = "0123456789abcdefghij";

test("an overlapping seam gives the shared text and the text either side of it", () => {
  // previous chunk ends at 12, next starts at 8: both hold "89ab"
  assert.deepEqual(seamText(text, 12, 8, 3), { before: "567", shared: "89ab", between: "", after: "cde" });
});

test("a gap gives the text neither chunk holds, and chunks that meet give neither", () => {
  assert.deepEqual(seamText(text, 8, 10, 2), { before: "67", shared: "", between: "89", after: "ab" });
  assert.deepEqual(seamText(text, 10, 10, 2), { before: "89", shared: "", between: "", after: "ab" });
});

test("the context stops at the ends of the document", () => {
  assert.deepEqual(seamText(text, 2, 1, 5), { before: "0", shared: "1", between: "", after: "23456" });
  assert.deepEqual(seamText(text, 19, 18, 5), { before: "defgh", shared: "i", between: "", after: "j" });
});
