import { test } from "node:test";
import assert from "node:assert/strict";
import { distributionOf, overlapHistogram, percent, quantileOfSorted } from "../../src/measure/stats";

test("quantiles interpolate linearly like numpy's default percentile", () => {
  // numpy.percentile([1, 2, 3, 4], [10, 50, 90]) == [1.3, 2.5, 3.7]
  const d = distributionOf([4, 1, 3, 2]);
  assert.ok(Math.abs(d.p10 - 1.3) < 1e-12);
  assert.equal(d.median, 2.5);
  assert.ok(Math.abs(d.p90 - 3.7) < 1e-12);
  assert.deepEqual([d.count, d.min, d.max, d.mean], [4, 1, 4, 2.5]);
  assert.ok(Number.isNaN(quantileOfSorted([], 0.5)));
});

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
  assert.equal(percent(1, 0), 0);
});
