import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSampleSizeRequest, type SampleRequestRules } from "../../src/stats/sample-request";

const rules: SampleRequestRules = {
  flag: "--things",
  defaultRequest: { kind: "auto", halfWidth: 0.03 },
  units: "things",
  halfWidthOf: "a CI half-width",
};

test("auto, auto:H, all and counts parse; no value is the default", () => {
  assert.deepEqual(parseSampleSizeRequest(undefined, rules), { kind: "auto", halfWidth: 0.03 });
  assert.deepEqual(parseSampleSizeRequest("", rules), { kind: "auto", halfWidth: 0.03 });
  assert.deepEqual(parseSampleSizeRequest("auto", rules), { kind: "auto", halfWidth: 0.03 });
  assert.deepEqual(parseSampleSizeRequest(" auto:0.02 ", rules), { kind: "auto", halfWidth: 0.02 });
  assert.deepEqual(parseSampleSizeRequest("all", rules), { kind: "all" });
  assert.deepEqual(parseSampleSizeRequest(250, rules), { kind: "count", count: 250 });
  assert.deepEqual(parseSampleSizeRequest("10000000", rules), { kind: "count", count: 10_000_000 });
});

test("anything else names the flag, the range and what is counted", () => {
  for (const bad of ["0", "-3", "1.5", "10000001", "auto:0", "auto:0.5", "auto:0.0001", "auto:x", "some"]) {
    assert.throws(
      () => parseSampleSizeRequest(bad, rules),
      new RegExp(
        `^SeamlabError: --things must be auto, auto:H \\(a CI half-width from 0\\.001 to 0\\.5.*things from 1 to 10,000,000; got "${bad.replace(".", "\\.")}"`,
      ),
    );
  }
});
