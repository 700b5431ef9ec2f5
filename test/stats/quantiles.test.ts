import { test } from "node:test";
import assert from "node:assert/strict";
import { percent } from "../../src/stats/proportion";
import { distributionOf, median, quantile, quantileOfSorted } from "../../src/stats/quantiles";

test("quantiles interpolate linearly like numpy's default percentile", () => {
  // numpy.percentile([1, 2, 3, 4], [10, 50, 90]) == [1.3, 2.5, 3.7]
  const d = distributionOf([4, 1, 3, 2]);
  assert.ok(Math.abs(d.p10 - 1.3) < 1e-12);
  assert.equal(d.median, 2.5);
  assert.ok(Math.abs(d.p90 - 3.7) < 1e-12);
  assert.deepEqual([d.count, d.min, d.max, d.mean], [4, 1, 4, 2.5]);
  assert.ok(Number.isNaN(quantileOfSorted([], 0.5)));
});

test("median is the middle value, the mean of the middle two for an even count (numpy.median), NaN when empty", () => {
  // numpy.median([3, 1, 2]) == 2.0, numpy.median([4, 1, 3, 2]) == 2.5
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test("quantile sorts its input first and agrees with numpy at the ends and in between", () => {
  // numpy.percentile([10, 0, 5, 20], [0, 25, 100]) == [0, 3.75, 20]
  assert.equal(quantile([10, 0, 5, 20], 0), 0);
  assert.equal(quantile([10, 0, 5, 20], 0.25), 3.75);
  assert.equal(quantile([10, 0, 5, 20], 1), 20);
  assert.equal(quantile([7], 0.1), 7);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});

test("percent of an empty whole is 0, not NaN", () => {
  assert.equal(percent(1, 4), 25);
  assert.equal(percent(1, 0), 0);
});
