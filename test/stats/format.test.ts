import { test } from "node:test";
import assert from "node:assert/strict";
import { percentNumber, signedPoints, thousands } from "../../src/stats/format";
import { pct } from "../../src/study/format";

test("percentNumber writes a fraction as percent without the sign, one decimal by default, n/a when not finite", () => {
  assert.equal(percentNumber(0.6634), "66.3");
  assert.equal(percentNumber(0.6634, 2), "66.34");
  assert.equal(percentNumber(1), "100.0");
  assert.equal(percentNumber(Number.NaN), "n/a");
  assert.equal(pct(0.6634), "66.3%", "pct is percentNumber with the sign");
});

test("signedPoints always shows the sign, with an ASCII or a typographic minus", () => {
  assert.equal(signedPoints(0.012), "+1.2");
  assert.equal(signedPoints(0), "+0.0");
  assert.equal(signedPoints(-0.004), "-0.4");
  assert.equal(signedPoints(-0.013, { minus: "−" }), "−1.3");
  assert.equal(signedPoints(Number.POSITIVE_INFINITY), "n/a");
});

test("thousands is the one way counts are written: separators, rounding to the digits asked, n/a when not finite", () => {
  assert.equal(thousands(1537), "1,537");
  assert.equal(thousands(1212842), "1,212,842");
  assert.equal(thousands(1963.4), "1,963", "counts round to whole numbers by default");
  assert.equal(thousands(59.294, 1), "59.3");
  assert.equal(thousands(3, 1), "3");
  assert.equal(thousands(3, 1, { fixed: true }), "3.0");
  assert.equal(thousands(1234.56, 1, { fixed: true }), "1,234.6");
  assert.equal(thousands(Number.NaN), "n/a");
  assert.equal(thousands(Number.POSITIVE_INFINITY), "n/a");
});
