import { test } from "node:test";
import assert from "node:assert/strict";
import { lowerBound } from "../../src/core/sorted";

test("lowerBound is the first index whose value is >= the one sought, against a linear scan", () => {
  const sorted = Int32Array.from([2, 2, 5, 9, 9, 9, 14]);
  for (let value = 0; value <= 16; value++) {
    const expected = sorted.findIndex((x) => x >= value);
    assert.equal(lowerBound(sorted, value), expected === -1 ? sorted.length : expected, `value ${value}`);
  }
  assert.equal(lowerBound(new Int32Array(0), 3), 0);
});
