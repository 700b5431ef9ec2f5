import assert from "node:assert/strict";
import { test } from "node:test";
import { cosine, describeInputReport, emptyInputReport, normaliseInPlace } from "../../src/embed/types";

test("the input report sentence says what happened to over-long inputs", () => {
  const inputs = { ...emptyInputReport(), embedded: 10, overLimit: 2, truncated: 2, longestTokens: 900 };
  assert.equal(
    describeInputReport({ name: "m", maxInputTokens: 512, inputs }),
    "m: 10 texts embedded; 2 over the 512-token limit (longest 900), 2 truncated to the limit.",
  );
  assert.equal(
    describeInputReport({ name: "m", maxInputTokens: 512, inputs: { ...inputs, overLimit: 0, truncated: 0 } }),
    "m: 10 texts embedded, none over the 512-token limit.",
  );
  assert.equal(
    describeInputReport({ name: "lsa", maxInputTokens: Infinity, inputs }),
    "lsa: 10 texts embedded (no input limit).",
  );
});

test("cosine and normalisation agree with a 3-4-5 triangle", () => {
  const v = normaliseInPlace(Float32Array.from([3, 4]));
  assert.ok(Math.abs(v[0] - 0.6) < 1e-7 && Math.abs(v[1] - 0.8) < 1e-7);
  assert.ok(Math.abs(cosine(Float32Array.from([3, 4]), Float32Array.from([1, 0])) - 0.6) < 1e-7);
  assert.equal(cosine(Float32Array.from([0, 0]), Float32Array.from([1, 0])), 0);
});
