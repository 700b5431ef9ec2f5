import { test } from "node:test";
import assert from "node:assert/strict";
import { isWordBoundary, nextWordStart, snapBackToBoundary, trimSpan } from "../../src/text/words";
import { isWhitespaceCode } from "../../src/text/whitespace";

test("whitespace is exactly what JS \\s matches, for every UTF-16 unit", () => {
  for (let code = 0; code < 0x10000; code++) {
    assert.equal(isWhitespaceCode(code), /\s/.test(String.fromCharCode(code)), `U+${code.toString(16)}`);
  }
});

test("a word boundary is any position not between two non-whitespace characters", () => {
  const text = "ab cd";
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((p) => isWordBoundary(text, p)),
    [true, false, true, true, false, true],
  );
});

test("snapping back moves to the start of the cut word, but never further than maxMove", () => {
  const text = "one two three";
  assert.equal(snapBackToBoundary(text, 10), 8); // inside "three"
  assert.equal(snapBackToBoundary(text, 7), 7); // already at a boundary
  assert.equal(snapBackToBoundary(text, 12, 2), 12); // "three" starts 4 back: left alone
});

test("the next word start skips the rest of a cut word and the whitespace after it", () => {
  const text = "one two  three";
  assert.equal(nextWordStart(text, 1), 4);
  assert.equal(nextWordStart(text, 4), 4);
  assert.equal(nextWordStart(text, 7), 9);
  assert.equal(nextWordStart(text, 10, 12), 12); // no word start before the limit
});

test("trimSpan drops whitespace at both ends, and an all-blank span collapses", () => {
  assert.deepEqual(trimSpan("  ab \n", 0, 6), [2, 4]);
  assert.deepEqual(trimSpan(" \n\t", 0, 3), [3, 3]);
});
