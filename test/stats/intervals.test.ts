import { test } from "node:test";
import assert from "node:assert/strict";
import { mcnemarExactP, pairedComparison } from "../../src/stats/paired";
import { bootstrapMeanInterval, bootstrapMeanIntervals } from "../../src/stats/bootstrap";
import { resampledMeansKernel } from "../../src/stats/resample-means";
import { seededIndexFiller } from "../../src/core/random";
import { percentileInterval } from "../../src/stats/quantiles";
import { wilsonInterval, Z95 } from "../../src/stats/proportion";
import { shownDirection, tangoInterval, zOfLevel } from "../../src/stats/paired-score";

const close = (actual: number, expected: number, tolerance = 5e-5) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

test("wilson interval for 8 of 10 matches the hand-computed 0.4902 to 0.9433", () => {
  // centre (0.8 + 1.96²/20)/(1 + 1.96²/10) = 0.71674, half-width 1.96·sqrt(0.016 + 0.009604)/1.38415 = 0.22658
  const { low, high } = wilsonInterval(8, 10);
  close(low, 0.4902);
  close(high, 0.9433);
});

test("wilson interval is [0, 1] for no data and pinned to the ends for 0/n and n/n", () => {
  assert.deepEqual(wilsonInterval(0, 0), { low: 0, high: 1 });
  assert.equal(wilsonInterval(0, 20).low, 0);
  close(wilsonInterval(0, 20).high, 0.1611); // 1.96²/(20 + 1.96²) = 3.8415/23.8415
  assert.equal(wilsonInterval(20, 20).high, 1);
  assert.throws(() => wilsonInterval(11, 10), /successes <= n/);
});

test("exact mcnemar p-value equals the two-sided binomial tail on the discordant pairs", () => {
  // b=1, c=9: 2·(C(10,0)+C(10,1))/2^10 = 22/1024
  close(mcnemarExactP(1, 9), 22 / 1024, 1e-12);
  // b=c gives p = 1 (capped)
  assert.equal(mcnemarExactP(5, 5), 1);
  assert.equal(mcnemarExactP(0, 0), 1);
  // b=0, c=6: 2/64
  close(mcnemarExactP(0, 6), 2 / 64, 1e-12);
  // large counts do not underflow: 40 vs 38 (the seed article's "noise") is far from significant
  assert.ok(mcnemarExactP(40, 38) > 0.9);
  assert.ok(mcnemarExactP(107, 52) < 0.001);
});

test("bootstrap interval is deterministic for a seed and brackets the mean", () => {
  const values = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 1 : 0));
  const a = bootstrapMeanInterval(values, { seed: 7 });
  const b = bootstrapMeanInterval(values, { seed: 7 });
  assert.deepEqual(a, b);
  assert.ok(a.low < 0.25 && a.high > 0.25);
  // close to the normal-theory 95% half-width 1.96·sqrt(.25·.75/200) = 0.060
  close((a.high - a.low) / 2, 0.06, 0.01);
  assert.deepEqual(bootstrapMeanInterval([3, 3, 3]), { low: 3, high: 3 });
});

test("paired comparison counts wins, losses and ties and reports hit rates and their difference", () => {
  const a = [true, true, true, false, false, true, false, true];
  const b = [true, false, false, false, true, true, false, false];
  const result = pairedComparison(a, b, { seed: 3 });
  assert.equal(result.wins, 3);
  assert.equal(result.losses, 1);
  assert.equal(result.ties, 4);
  assert.equal(result.hitRateA, 5 / 8);
  assert.equal(result.hitRateB, 3 / 8);
  assert.equal(result.diff, 2 / 8);
  close(result.mcnemarP, (2 * (1 + 4)) / 16, 1e-12);
  assert.ok(result.diffCI.low <= result.diff && result.diff <= result.diffCI.high);
  assert.throws(() => pairedComparison([true], [true, false]), /same queries/);
});

test("bootstrapMeanIntervals gives each column the interval of its own mean bootstrap (same draws, same sums)", () => {
  // the resampled means run in WebAssembly on Node 20, eight columns at a time: the by-hand loop below checks them
  assert.ok(resampledMeansKernel());
  const table = (count: number, n: number) =>
    Array.from({ length: count }, (_, j) => Array.from({ length: n }, (_, i) => ((i * (j + 3)) % 7) / (j + 1.5) - j));
  // each column's mean bootstrapped alone, by hand: the same seeded draws, its own sums
  const alone = (values: number[], seed: number) => {
    const fill = seededIndexFiller(seed);
    const indices = new Int32Array(values.length);
    const means = new Float64Array(700);
    for (let r = 0; r < 700; r++) {
      fill(indices, values.length);
      let sum = 0;
      for (let i = 0; i < indices.length; i++) sum += values[indices[i]];
      means[r] = sum / indices.length;
    }
    return percentileInterval(means.sort(), 0.95);
  };
  for (const seed of [1, 9]) {
    const columns = table(3, 157);
    const shared = bootstrapMeanIntervals(columns, { seed, resamples: 700 });
    assert.deepEqual(
      shared,
      columns.map((values) => alone(values, seed)),
    );
    assert.ok(shared[0].low < shared[0].high && shared[1].low !== shared[2].low, JSON.stringify(shared));
  }
  for (const [count, n] of [
    [1, 1],
    [2, 2],
    [8, 33],
    [9, 157],
    [17, 40],
  ]) {
    const columns = table(count, n);
    assert.deepEqual(
      bootstrapMeanIntervals(columns, { seed: 5, resamples: 700 }),
      columns.map((values) => alone(values, 5)),
      `${count} columns of ${n}`,
    );
  }
  assert.deepEqual(bootstrapMeanIntervals([[], []]), [
    { low: Number.NaN, high: Number.NaN },
    { low: Number.NaN, high: Number.NaN },
  ]);
  assert.throws(() => bootstrapMeanIntervals([[1, 2], [1]]), /columns of 2, 1 values/);
});

test("tango's score interval matches Fagerland et al.'s Cavo example: 6 against 16 of 161 pairs, [−0.1240, −0.0054]", () => {
  // contingencytables (R), Tango_asymptotic_score_CI_paired_2x2(rbind(c(59, 6), c(16, 80))): -0.0621 (-0.1240 to -0.0054);
  // the same table's exact conditional McNemar test: P = 0.052479.
  const { low, high } = tangoInterval(6, 16, 161);
  close(low, -0.124);
  close(high, -0.0054);
  close(mcnemarExactP(6, 16), 0.052479, 1e-6);
  // The CI excludes 0 but the exact test does not reject: not shown.
  assert.equal(shownDirection({ low, high, mcnemarP: mcnemarExactP(6, 16) }), null);
  assert.equal(shownDirection({ low, high, mcnemarP: 0.01 }), "below");
});

test("tango's interval with no discordant pairs is ±z²/(n + z²), and reaches ±1 when every pair disagrees one way", () => {
  const z2 = Z95 * Z95;
  const none = tangoInterval(0, 0, 40);
  close(none.high, z2 / (40 + z2), 1e-8);
  close(none.low, -z2 / (40 + z2), 1e-8);
  assert.equal(tangoInterval(5, 0, 5).high, 1);
  assert.equal(tangoInterval(0, 5, 5).low, -1);
  assert.throws(() => tangoInterval(3, 3, 5), /b \+ c <= n/);
});

test("zOfLevel inverts the normal: 1.96 for 95%, 1.645 for 90%, 2.576 for 99%", () => {
  close(zOfLevel(0.95), Z95, 1e-8);
  close(zOfLevel(0.9), 1.644854, 1e-6);
  close(zOfLevel(0.99), 2.575829, 1e-6);
  assert.throws(() => zOfLevel(1), /level/);
});

test("a paired comparison's CI is never narrower than Tango's: 40 agreeing queries are not [0, 0]", () => {
  const hits = Array.from({ length: 40 }, (_, i) => i % 3 === 0);
  const c = pairedComparison(hits, hits);
  assert.equal(c.diff, 0);
  close(c.diffCI.high, (Z95 * Z95) / (40 + Z95 * Z95), 1e-8);
  assert.equal(shownDirection({ ...c.diffCI, mcnemarP: c.mcnemarP }), null);
});

test("4 wins and no losses of 76 are not shown: the CI may exclude 0, the exact McNemar p of 0.125 does not", () => {
  const a = Array.from({ length: 76 }, (_, i) => i < 44);
  const b = Array.from({ length: 76 }, (_, i) => i >= 4 && i < 44);
  const c = pairedComparison(a, b);
  assert.equal(c.wins, 4);
  assert.equal(c.mcnemarP, 0.125);
  assert.equal(shownDirection({ ...c.diffCI, mcnemarP: c.mcnemarP }, c.level), null);
});
