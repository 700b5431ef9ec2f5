import { test } from "node:test";
import assert from "node:assert/strict";
import { lowerBound, partitionPoint } from "../../src/core/sorted";

test("lowerBound is the first index whose value is >= the one sought, against a linear scan", () => {
  const sorted = Int32Array.from([2, 2, 5, 9, 9, 9, 14]);
  for (let value = 0; value <= 16; value++) {
    const expected = sorted.findIndex((x) => x >= value);
    assert.equal(lowerBound(sorted, value), expected === -1 ? sorted.length : expected, `value ${value}`);
  }
  assert.equal(lowerBound(new Int32Array(0), 3), 0);
});

test("partitionPoint is the first index where the predicate fails, against a linear scan, by any key", () => {
  const starts = [{ start: 0 }, { start: 4 }, { start: 4 }, { start: 10 }];
  for (let p = -1; p <= 12; p++) {
    const expected = starts.findIndex((s) => !(s.start <= p));
    const got = partitionPoint(starts.length, (i) => starts[i].start <= p);
    assert.equal(got, expected === -1 ? starts.length : expected, `p ${p}`);
  }
  assert.equal(
    partitionPoint(0, () => true),
    0,
  );
});
