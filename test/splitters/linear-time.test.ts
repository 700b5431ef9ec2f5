// A large single document must split in linear time. The 50 MB run is in bench/splitters.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { splitDoc } from "../../src/splitters/registry";
import { getEncoding } from "../../src/text/tokens";
import { generatedProse } from "../helpers/prose";

function timeSplit(splitter: string, text: string): number {
  const config = splitter === "tokens" ? { splitter, size: 256, overlap: 32 } : { splitter, size: 1000, overlap: 200 };
  const t0 = performance.now();
  const chunks = splitDoc({ id: "big", text }, config);
  const ms = performance.now() - t0;
  assert.ok(chunks.length > 0);
  assert.ok(chunks[chunks.length - 1].end >= text.trimEnd().length); // recursive strips a trailing space
  return ms;
}

test("window, recursive and tokens split a 5 MB document in a few seconds, scaling linearly from 1 MB", () => {
  getEncoding(); // load the BPE ranks outside the timing
  const small = generatedProse(1_000_000);
  const large = generatedProse(5_000_000);
  const warmUp = generatedProse(100_000);
  for (const splitter of ["window", "recursive", "tokens"]) {
    timeSplit(splitter, warmUp);
    const a = timeSplit(splitter, small);
    const b = timeSplit(splitter, large);
    assert.ok(b < 8000, `${splitter}: ${b.toFixed(0)} ms for 5 MB`);
    // Linear gives ~5x; quadratic would give ~25x. Timer noise dominates the fastest splitters, hence the floor.
    assert.ok(b < 12 * Math.max(a, 5), `${splitter}: 1 MB ${a.toFixed(0)} ms, 5 MB ${b.toFixed(0)} ms`);
  }
});

test("a 2 MB run without whitespace or separators is still split in linear time", () => {
  const text = "x".repeat(2_000_000);
  for (const splitter of ["window-words", "recursive", "sentences", "tail"]) {
    const t0 = performance.now();
    const chunks = splitDoc({ id: "x", text }, { splitter, size: 1000, overlap: 200 });
    assert.ok(performance.now() - t0 < 5000, splitter);
    assert.equal(chunks[chunks.length - 1].end, text.length);
  }
});
