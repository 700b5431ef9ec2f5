import { test } from "node:test";
import assert from "node:assert/strict";
import { kendallTauB } from "../../src/stats/kendall";

test("Kendall tau-b is 1 for the same order, -1 reversed, NaN for a constant list", () => {
  assert.equal(kendallTauB([1, 2, 3, 4], [10, 20, 30, 40]), 1);
  assert.equal(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1]), -1);
  assert.ok(Number.isNaN(kendallTauB([1, 1, 1], [1, 2, 3])));
});

test("Kendall tau-b with ties matches scipy.stats.kendalltau", () => {
  // scipy.stats.kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) -> tau = -0.47140452079103173 (scipy's docs example)
  assert.ok(Math.abs(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) - -0.47140452079103173) < 1e-12);
  // hand count: x = [1,2,3], y = [1,3,2]: pairs (1,2) C, (1,3) C, (2,3) D -> (2-1)/3
  assert.ok(Math.abs(kendallTauB([1, 2, 3], [1, 3, 2]) - 1 / 3) < 1e-12);
});
