import test from "node:test";
import assert from "node:assert/strict";
import type { CostedRow } from "../../src/experiment/run";
import {
  perTypeHeadline,
  statedAnswer,
  typeCurve,
  typeRecommendationRows,
  type PerTypeVsUniform,
} from "../../src/study/type-sweep";

const QUERIES = 600;
function row(storage: number, hit: (i: number) => boolean): CostedRow {
  const hits = Array.from({ length: QUERIES }, (_, i) => (hit(i) ? "1" : "0")).join("");
  return { hits, cost: { storageBytes: storage } } as unknown as CostedRow;
}
const all = Array.from({ length: QUERIES }, (_, i) => i);

test("07's per-type recommendation is the paired rule: a steady rise the Wilson CIs blur still picks the larger overlap", () => {
  // Each overlap hits every query the smaller one hits plus 5% more: 40%, 45%, 50%. The Wilson intervals of
  // neighbours overlap (±4 points at 600 queries), but paired, every query moves one way.
  const rows = [row(100, (i) => i % 20 < 8), row(110, (i) => i % 20 < 9), row(120, (i) => i % 20 < 10)];
  const curve = typeCurve("all", rows, [0, 100, 200], all, 20);
  assert.equal(curve.decision?.verdict, "decided");
  assert.equal(curve.recommended, 200);
  assert.equal(typeRecommendationRows([curve])[0].recommended, 200);
});

test("07's per-type recommendation says undecided, with the queries needed, or too few queries, instead of a number", () => {
  const rows = [row(100, (i) => i % 2 === 0), row(110, (i) => i % 2 === 0 || i === 1 || i === 3 || i === 5)];
  const curve = typeCurve("prose", rows, [0, 100], all, 20);
  assert.equal(curve.decision?.verdict, "undecided");
  assert.equal(curve.recommended, null);
  assert.match(
    String(typeRecommendationRows([curve])[0].recommended),
    /^undecided: .*\(need ~[\d,]+ queries, [\d,]+ more\)$/,
  );
  const few = typeCurve("faq", rows, [0, 100], [0, 1, 2], 20);
  assert.equal(few.decision, null);
  assert.equal(typeRecommendationRows([few])[0].recommended, "too few queries");
});

test("07's headline prints a per-type gain only when the paired CI excludes zero and McNemar's exact test agrees", () => {
  const base = { queries: 801, wins: 30, losses: 16, ties: 755, hitRateA: 0.431, hitRateB: 0.413, level: 0.95 };
  const verdict = (diff: number, low: number, high: number, mcnemarP = 0.01) => {
    const comparison = { ...base, mcnemarP, diff, diffCI: { low, high } };
    return { comparison, answer: statedAnswer(comparison) } as unknown as PerTypeVsUniform;
  };
  const unclear = perTypeHeadline(verdict(0.017, 0, 0.035, 0.07));
  assert.equal(unclear.value, "no measurable gain");
  assert.match(unclear.options.note, /^no measurable gain: keep one setting \(per type minus uniform: \+1\.7 points/);
  assert.equal(perTypeHeadline(verdict(0.02, 0.005, 0.035)).value, "+2.0 points");
  assert.equal(perTypeHeadline(verdict(-0.02, -0.035, -0.005)).value, "−2.0 points: keep one setting");
  // A CI above 0 beside an exact McNemar p of 0.07 (30 against 16) is not a shown gain.
  assert.equal(perTypeHeadline(verdict(0.02, 0.005, 0.035, 0.07)).value, "no measurable gain");
});
