import assert from "node:assert/strict";
import { test } from "node:test";
import { clusterRatioInterval, clusterSampleSize } from "../../src/stats/cluster";

test("documents that all share one ratio give a cluster bootstrap interval of exactly that ratio", () => {
  const ci = clusterRatioInterval([1, 2, 3, 4], [2, 4, 6, 8], undefined, { seed: 3 });
  assert.deepEqual(ci, { value: 0.5, low: 0.5, high: 0.5 });
});

test("the cluster bootstrap is wider than treating seams as independent when documents differ", () => {
  // 20 documents of 50 seams: half keep every seam, half keep none. Pooled: 500 of 1000. A binomial view gives
  // about ±3 points; documents are all-or-nothing, so the honest interval is about ±22 points.
  const y = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 50 : 0));
  const x = Array.from({ length: 20 }, () => 50);
  const ci = clusterRatioInterval(y, x, undefined, { seed: 1, resamples: 2000 });
  assert.equal(ci.value, 0.5);
  // Standard error of a mean of 20 zero-one documents: sqrt(0.25 / 20) = 0.112, so 1.96 × 0.112 ≈ 0.22.
  assert.ok(ci.high - ci.value > 0.17 && ci.high - ci.value < 0.27, `high ${ci.high}`);
  assert.ok(ci.value - ci.low > 0.17 && ci.value - ci.low < 0.27, `low ${ci.low}`);
  assert.deepEqual(clusterRatioInterval(y, x, undefined, { seed: 1, resamples: 2000 }), ci, "seeded");
});

test("stratified resampling keeps each stratum's size, so between-strata differences add no width", () => {
  // Two strata with different but internally constant ratios: every resample has the same mix.
  const y = [10, 10, 10, 0, 0, 0];
  const x = [10, 10, 10, 10, 10, 10];
  const strata = ["a", "a", "a", "b", "b", "b"];
  assert.deepEqual(clusterRatioInterval(y, x, strata), { value: 0.5, low: 0.5, high: 0.5 });
  const unstratified = clusterRatioInterval(y, x);
  assert.ok(unstratified.high - unstratified.low > 0.3);
});

test("the sample size for a target half-width follows n = (z·s/h)² with s the ratio's residual deviation", () => {
  // Residuals (y − 0.5x)/x̄ with x̄ = 50: ±25/50 = ±0.5 for every document, so s² = 0.25·n/(n−1).
  const y = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 50 : 0));
  const x = Array.from({ length: 20 }, () => 50);
  const s2 = (0.25 * 20) / 19;
  assert.equal(clusterSampleSize(y, x, 0.05), Math.ceil((1.959964 ** 2 * s2) / 0.05 ** 2));
  assert.equal(clusterSampleSize([5, 5], [10, 10], 0.01), 1, "no variation: one document says it all");
  assert.equal(clusterSampleSize([3], [10], 0.01), 1, "a single pilot document cannot estimate variation");
});
