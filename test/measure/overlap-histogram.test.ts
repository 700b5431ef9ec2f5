import { test } from "node:test";
import assert from "node:assert/strict";
import { overlapHistogram } from "../../src/measure/overlap-histogram";

test("the overlap histogram has a zero bin, ten bins up to the nominal budget and one above it", () => {
  const bins = overlapHistogram([0, 0, 20, 21, 60, 200, 201], 200);
  assert.equal(bins.length, 12);
  const counts = Object.fromEntries(bins.map((b) => [b.label, b.count]));
  assert.equal(counts["0"], 2);
  assert.equal(counts["0-20"], 1);
  assert.equal(counts["20-40"], 1);
  assert.equal(counts["40-60"], 1); // 60 sits in (40, 60], not (60, 80]
  assert.equal(counts["180-200"], 1);
  assert.equal(counts[">200"], 1);
  assert.equal(
    bins.reduce((s, b) => s + b.count, 0),
    7,
  );
});

test("with no nominal overlap the histogram is just zero and above zero", () => {
  assert.deepEqual(
    overlapHistogram([0, 3], 0).map((b) => [b.label, b.count]),
    [
      ["0", 1],
      [">0", 1],
    ],
  );
});
