// A large single document must split in linear time: cost grows with size like the size does (CPU time, median of
// three runs, so noise from other processes cannot fail it). How fast, in MB/s, is bench/splitters.ts's job.
import { test } from "node:test";
import assert from "node:assert/strict";
import { splitDoc } from "../../src/splitters/registry";
import { getEncoding } from "../../src/text/tokens";
import { generatedProse } from "../helpers/prose";
import { assertScalesLinearly } from "../helpers/scaling";

function splitWhole(splitter: string, text: string): void {
  const config = splitter === "tokens" ? { splitter, size: 256, overlap: 32 } : { splitter, size: 1000, overlap: 200 };
  const chunks = splitDoc({ id: "big", text }, config);
  assert.ok(chunks.length > 0);
  assert.ok(chunks[chunks.length - 1].end >= text.trimEnd().length); // recursive strips a trailing space
}

test("window, recursive and tokens cost about five times as much on 5 MB as on 1 MB (linear, not quadratic)", () => {
  getEncoding(); // load the BPE ranks outside the measurement
  const small = generatedProse(1_000_000);
  const large = generatedProse(5_000_000);
  for (const splitter of ["window", "recursive", "tokens"]) {
    assertScalesLinearly(
      splitter,
      () => splitWhole(splitter, small),
      () => splitWhole(splitter, large),
      { factor: 5 },
    );
  }
});

test("a run without whitespace or separators is split in linear time too (400k vs 2M characters)", () => {
  const small = "x".repeat(400_000);
  const large = "x".repeat(2_000_000);
  for (const splitter of ["window-words", "recursive", "sentences", "tail"]) {
    const split = (text: string) => () => {
      const chunks = splitDoc({ id: "x", text }, { splitter, size: 1000, overlap: 200 });
      assert.equal(chunks[chunks.length - 1].end, text.length);
    };
    assertScalesLinearly(splitter, split(small), split(large), { factor: 5 });
  }
});
