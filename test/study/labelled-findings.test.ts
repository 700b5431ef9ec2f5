import test from "node:test";
import assert from "node:assert/strict";
import { pairedComparison } from "../../src/stats/paired";
import { pairedFinding } from "../../src/study/labelled";
import type { ConfigEvaluation } from "../../src/study/labelled";

const evaluation = (overlap: number) =>
  ({ config: { splitter: "recursive", size: 1000, overlap, unit: "chars" } }) as unknown as ConfigEvaluation;

test("05's paired sentence signs the difference and its CI and gives each one decimal, as the tables do", () => {
  // 20 of 100 queries: A hits 15 that B misses and misses 5 that B hits, so A − B = +10 points.
  const a = Array.from({ length: 100 }, (_, i) => i < 15 || (i >= 20 && i < 60));
  const b = Array.from({ length: 100 }, (_, i) => (i >= 15 && i < 20) || (i >= 20 && i < 60));
  const paired = pairedComparison(a, b);
  const text = pairedFinding(evaluation(200), evaluation(0), paired);
  assert.match(text, /15 wins, 5 losses, 80 ties/);
  assert.match(text, /hit-rate difference \+10\.0 points \(95% CI [+−]\d+\.\d to \+\d+\.\d\)/);
});
