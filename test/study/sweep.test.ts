import { test } from "node:test";
import assert from "node:assert/strict";
import { pickKnee } from "../../src/experiment/knee";
import { kneeMarkers, recommendOverlap } from "../../src/study/sweep";

function curve(points: { x: number; y: number; low: number; high: number }[]) {
  const full = points.map((p) => ({ ...p, overlap: p.x, chunks: 100, tokensRatio: 1, storageRatio: 1 }));
  return {
    splitter: "recursive",
    size: 1000,
    unit: "chars" as const,
    k: 5,
    finalK: 5,
    reranker: "none",
    metric: "hitRate" as const,
    points: full,
    knee: pickKnee(full),
  };
}

test("the recommendation is the smallest overlap whose CI reaches the best hit rate", () => {
  const c = curve([
    { x: 0, y: 0.5, low: 0.45, high: 0.55 },
    { x: 100, y: 0.6, low: 0.55, high: 0.65 },
    { x: 200, y: 0.64, low: 0.59, high: 0.69 },
    { x: 300, y: 0.63, low: 0.58, high: 0.68 },
  ]);
  // 0.55 < 0.64 but 0.65 >= 0.64: overlap 100 is the first the data cannot tell from the best.
  const rec = recommendOverlap(c);
  assert.equal(rec.overlap, 100);
  assert.match(rec.reason, /^The best hit rate \(64\.0%\) is at overlap 200, and overlap 100 is the smallest/);
});

test("knee markers merge into one rule when both methods agree and stay two when they do not", () => {
  const agree = {
    points: 4,
    kneedle: { x: 100, y: 1 },
    plateau: { x: 100, y: 1, rule: "ci" as const, bestX: 200, bestY: 1 },
    agree: true,
    notes: [],
  };
  assert.deepEqual(kneeMarkers(agree), [{ x: 100, label: "knee (Kneedle = plateau): 100" }]);
  const disagree = { ...agree, kneedle: { x: 50, y: 1 }, agree: false };
  assert.deepEqual(
    kneeMarkers(disagree).map((m) => m.x),
    [100, 50],
  );
});
