import { test } from "node:test";
import assert from "node:assert/strict";
import { pairedComparison } from "../../src/stats/paired";
import { pairedAgainstBest } from "../../src/stats/paired-best";
import { seededRandom } from "../../src/core/random";

const bits = (text: string) => Array.from(text, (c) => (c === "1" ? 1 : 0));

function randomOutcomes(rates: number[], n: number, seed: number): number[][] {
  const random = seededRandom(seed);
  return rates.map((p) => Array.from({ length: n }, () => (random() < p ? 1 : 0)));
}

test("the difference from the baseline matches the two-config paired bootstrap query for query", () => {
  const [a, b] = randomOutcomes([0.4, 0.5], 120, 3);
  const result = pairedAgainstBest([a, b], { seed: 5, resamples: 500 });
  const reference = pairedComparison(
    b.map((v) => v === 1),
    a.map((v) => v === 1),
    { seed: 5, resamples: 500 },
  );
  const vsBase = result.configs[1].fromBaseline;
  assert.ok(Math.abs(vsBase.diff - reference.diff) < 1e-12);
  assert.ok(Math.abs(vsBase.low - reference.diffCI.low) < 1e-12, `${vsBase.low} vs ${reference.diffCI.low}`);
  assert.ok(Math.abs(vsBase.high - reference.diffCI.high) < 1e-12);
  assert.equal(vsBase.wins, reference.wins);
  assert.equal(vsBase.losses, reference.losses);
  assert.equal(vsBase.mcnemarP, reference.mcnemarP);
});

test("the best is the highest rate, every difference from it is >= 0 and its CI brackets it", () => {
  const outcomes = randomOutcomes([0.3, 0.35, 0.4, 0.38], 200, 11);
  const result = pairedAgainstBest(outcomes, { resamples: 400 });
  const rates = outcomes.map((o) => o.reduce((s, v) => s + v, 0) / 200);
  assert.equal(result.best, rates.indexOf(Math.max(...rates)));
  for (const c of result.configs) {
    assert.ok(c.fromBest.diff >= 0);
    assert.ok(c.fromBest.low <= c.fromBest.diff && c.fromBest.diff <= c.fromBest.high);
  }
});

test("re-picking the best per replicate widens the best's own interval above 0 when another config ties it", () => {
  // Two configs with equal hit counts but different queries: in half the replicates the other one wins.
  const a = bits("1100110011001100110011001100110011001100");
  const b = bits("0110011001100110011001100110011001100110");
  const result = pairedAgainstBest([a, b], { resamples: 1000 });
  assert.equal(result.best, 0);
  assert.equal(result.configs[0].fromBest.diff, 0);
  assert.ok(result.configs[0].fromBest.high > 0.05, `high ${result.configs[0].fromBest.high}`);
  // b's lower bound is the plain paired one against the observed best: a tie straddles 0, so b is not "worse".
  assert.ok(result.configs[1].fromBest.low < 0 && result.configs[1].fromBest.high > 0);
});

test("identical configs: the others' CI is Tango's ±z²/(n + z²), and the observed best's bound is as wide", () => {
  const a = bits("1011001110");
  const result = pairedAgainstBest([a, a, a], { resamples: 200 });
  assert.equal(result.best, 0);
  const own = result.configs[0].fromBest;
  assert.deepEqual([own.diff, own.low], [0, 0]);
  // The first of three ties is the observed best only by convention: any of them may be the true best.
  assert.ok(Math.abs(own.high - 0.2775) < 1e-4, `${own.high}`);
  // Ten agreeing queries say little about how often the configs would disagree: 1.96²/(10 + 1.96²) = 0.2775.
  for (const c of result.configs.slice(1)) {
    assert.equal(c.fromBest.diff, 0);
    assert.ok(
      Math.abs(c.fromBest.low + 0.2775) < 1e-4 && Math.abs(c.fromBest.high - 0.2775) < 1e-4,
      `${c.fromBest.high}`,
    );
    assert.equal(c.fromBest.mcnemarP, 1);
  }
  // The baseline against itself is exactly zero too.
  assert.deepEqual([result.configs[0].fromBaseline.low, result.configs[0].fromBaseline.high], [0, 0]);
});

test("mcnemar p of a config against the best counts the discordant queries both ways", () => {
  // best hits 6 queries config 1 misses; config 1 hits none the best misses: p = 2 / 2^6.
  const best = bits("1111110000");
  const other = bits("0000000000");
  const result = pairedAgainstBest([other, best], { resamples: 100 });
  assert.equal(result.best, 1);
  assert.equal(result.configs[0].fromBest.wins, 6);
  assert.equal(result.configs[0].fromBest.losses, 0);
  assert.ok(Math.abs(result.configs[0].fromBest.mcnemarP - 2 / 64) < 1e-12);
  assert.ok(Math.abs(result.configs[0].fromBaseline.diff) < 1e-12);
  assert.ok(Math.abs(result.configs[1].fromBaseline.diff - 0.6) < 1e-12);
});

test("the same seed gives the same intervals", () => {
  const outcomes = randomOutcomes([0.3, 0.4, 0.45], 150, 2);
  assert.deepEqual(
    pairedAgainstBest(outcomes, { seed: 9, resamples: 300 }),
    pairedAgainstBest(outcomes, { seed: 9, resamples: 300 }),
  );
});

test("configs run on different query counts are refused with the counts named", () => {
  assert.throws(() => pairedAgainstBest([bits("101"), bits("10")]), /config 1 has 2 query outcomes but config 0 has 3/);
});
