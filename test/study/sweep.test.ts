import { test } from "node:test";
import assert from "node:assert/strict";
import { sweepCurves } from "../../src/experiment/sweep";
import type { CostedRow } from "../../src/experiment/run";
import {
  combinedRecommendationMarkers,
  pairedTableRows,
  recommendOverlap,
  recommendationMarkers,
} from "../../src/study/sweep";

/** A grid row with just what a sweep curve reads: hits per query, chunks and vector bytes. */
function row(overlap: number, hits: string, chunks: number): CostedRow {
  const n = hits.length;
  const h = [...hits].filter((c) => c === "1").length;
  return {
    label: `recursive 1000/${overlap}`,
    key: String(overlap),
    config: { splitter: { splitter: "recursive", size: 1000, overlap, unit: "chars" }, retrieval: { k: 5, finalK: 5 } },
    seams: { chunks } as CostedRow["seams"],
    damage: {} as CostedRow["damage"],
    retrieval: { hitRate: h / n, hitRateCI: { low: 0, high: 1 }, recallAtK: h / n, recallAtKCI: { low: 0, high: 1 } },
    tokensEmbedded: chunks * 100,
    hits,
    cost: { storageBytes: chunks * 6144, tokensRatio: 1, storageRatio: 1 },
  } as unknown as CostedRow;
}

const repeat = (pattern: string, times: number) => pattern.repeat(times);

test("the paired rule recommends the cheapest overlap shown within a point of the best, and names Kneedle second", () => {
  // 400 queries. Overlap 0 misses 40 queries that 200 and 400 hit (10 points worse); 200 and 400 agree on all.
  const zero = repeat("0", 40) + repeat("1", 160) + repeat("0", 200);
  const good = repeat("1", 40) + repeat("1", 160) + repeat("0", 200);
  const curve = sweepCurves([row(0, zero, 100), row(200, good, 125), row(400, good, 166)], "hitRate")[0];
  const rec = recommendOverlap(curve);
  assert.equal(rec.overlap, 200);
  assert.equal(rec.verdict, "decided");
  assert.match(rec.reason, /^\*\*Use overlap 200\*\*: the cheapest setting within 1 point of the best/);
  assert.match(rec.reason, /Shown worse than the best .*overlap 0 \(−10\.0 points from the best/);
  assert.match(rec.reason, /Second opinion on the curve's shape: Kneedle/);
  assert.match(rec.headline, /^200 chars \(within 1 point of the best\)$/);
});

test("when a cheaper overlap can be neither shown within the margin nor shown worse, the verdict is undecided with a query count", () => {
  // 200 queries; overlap 0 and 300 disagree on 20 of them, 11 to 9 for 300: a 1-point gap no test can settle here.
  const zero = repeat("1", 9) + repeat("0", 11) + repeat("1", 60) + repeat("0", 120);
  const more = repeat("0", 9) + repeat("1", 11) + repeat("1", 60) + repeat("0", 120);
  const curve = sweepCurves([row(0, zero, 100), row(300, more, 140)], "hitRate")[0];
  const rec = recommendOverlap(curve);
  assert.equal(rec.verdict, "undecided");
  assert.deepEqual(curve.decision.candidates, [0]);
  assert.ok((curve.decision.queriesNeeded as number) > 200);
  assert.match(rec.reason, /^\*\*Undecided\*\* at a 1 point margin/);
  assert.match(rec.reason, /About [\d,]+ queries in all would decide it .*\(this run has 200: [\d,]+ more\)/);
  assert.match(rec.headline, /^undecided: 0 chars, 300 chars \(need ~[\d,]+ queries, [\d,]+ more\)$/);
  // 03's paired table says the same count, in all, beside the unclear overlap and nothing beside the best.
  const table = pairedTableRows(curve);
  assert.equal(table[0]["queries to decide (in all)"], curve.decision.queriesNeeded);
  assert.equal(table[1]["queries to decide (in all)"], "");
});

test("charts mark the paired rule's pick, not the plateau rule's knee; curves with the same pick share one rule", () => {
  // 200 queries: overlap 300 hits 20 more than overlap 0, every one a win: decided for 300.
  const zero = repeat("0", 20) + repeat("1", 60) + repeat("0", 120);
  const more = repeat("1", 20) + repeat("1", 60) + repeat("0", 120);
  const decided = recommendOverlap(sweepCurves([row(0, zero, 100), row(300, more, 140)], "hitRate")[0]);
  assert.equal(decided.verdict, "decided");
  assert.equal(recommendationMarkers(decided)[0].label, "paired rule: 300");
  // 11 to 9 on 20 disagreeing queries: undecided, the safe pick is 300.
  const a = repeat("1", 9) + repeat("0", 11) + repeat("1", 60) + repeat("0", 120);
  const b = repeat("0", 9) + repeat("1", 11) + repeat("1", 60) + repeat("0", 120);
  const undecided = recommendOverlap(sweepCurves([row(0, a, 100), row(300, b, 140)], "hitRate")[0]);
  assert.equal(undecided.verdict, "undecided");
  assert.deepEqual(
    combinedRecommendationMarkers([
      { rec: decided, name: "headers" },
      { rec: undecided, name: "ict" },
    ]),
    [{ x: 300, label: "headers & ict (undecided) paired rule: 300" }],
  );
  // A flat curve on 200 queries: overlap 0, the cheaper, leans (200 agreeing queries do not show two configs within
  // a point of each other: Tango's bound is 1.9 points), and it is marked apart from headers' decided 300.
  const flat = recommendOverlap(sweepCurves([row(0, zero, 100), row(300, zero, 140)], "hitRate")[0]);
  assert.deepEqual(
    combinedRecommendationMarkers([
      { rec: decided, name: "headers" },
      { rec: flat, name: "ict" },
    ]).map((m) => m.label),
    ["ict (leaning) paired rule: 0", "headers paired rule: 300"],
  );
});
