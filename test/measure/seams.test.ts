import { test } from "node:test";
import assert from "node:assert/strict";
import type { Doc } from "../../src/core/types";
import { measureSeams } from "../../src/measure/seams";
import { measureSplit } from "../../src/measure/summary";
import { span } from "./helpers";

const a: Doc = { id: "a.md", text: "aaaa bbbb cccc dddd" };
const b: Doc = { id: "b.md", text: "one two three" };
//                                  0123456789012
const chunks = [span(a, 0, 9), span(a, 5, 14), span(a, 15, 19), span(b, 0, 3), span(b, 8, 13)];

test("seam overlap is the span intersection and the gap the distance between spans", () => {
  const seams = measureSeams([a, b], chunks);
  assert.deepEqual(
    seams.map((s) => [s.doc, s.index, s.overlap, s.gap, s.gapLostChars]),
    [
      ["a.md", 0, 4, 0, 0], // "bbbb" shared
      ["a.md", 1, 0, 1, 0], // a space between: whitespace is not lost
      ["b.md", 0, 0, 5, 3], // " two " skipped: 3 letters lost
    ],
  );
  assert.deepEqual([seams[0].prevEnd, seams[0].nextStart], [9, 5]);
});

test("token overlap counts the tokens of the shared source text only", () => {
  const seams = measureSeams([a], chunks.slice(0, 3), { countTokens: (t) => t.split(" ").length });
  assert.deepEqual(
    seams.map((s) => s.overlapTokens),
    [1, 0],
  );
});

test("the seam summary matches the hand-computed numbers", () => {
  const { summary } = measureSplit([a, b], chunks, { nominalOverlap: 4, limit: 5 });
  assert.equal(summary.docs, 2);
  assert.equal(summary.chars, 19 + 13);
  assert.equal(summary.chunks, 5);
  assert.equal(summary.seams, 3);
  assert.equal(summary.zeroOverlapSeams, 2);
  assert.ok(Math.abs(summary.zeroOverlapPct - 200 / 3) < 1e-9);
  assert.ok(Math.abs(summary.meanOverlap - 4 / 3) < 1e-9);
  assert.equal(summary.medianOverlap, 0);
  assert.ok(Math.abs(summary.realisedOverlapRatio! - 1 / 3) < 1e-9);
  assert.equal(summary.gapSeams, 2);
  // chunk texts: 9 + 9 + 4 + 3 + 5 = 30 chars over a 32-char corpus
  assert.equal(summary.indexRatio, 30 / 32);
  assert.equal(summary.maxChunkLength, 9);
  assert.equal(summary.chunksOverLimit, 2);
  assert.equal(summary.lostChars, 3);
  assert.equal(summary.docsWithLostText, 1);
  assert.equal(summary.overlapHistogram[0].count, 2);
});

test("a single-chunk corpus has no seams and reports zeros, not NaN", () => {
  const { summary } = measureSplit([b], [span(b, 0, 13)], { nominalOverlap: 2 });
  assert.equal(summary.seams, 0);
  assert.equal(summary.meanOverlap, 0);
  assert.equal(summary.zeroOverlapPct, 0);
  assert.doesNotThrow(() => JSON.parse(JSON.stringify(summary)));
});

test("a chunk of a doc missing from the corpus is a programming error", () => {
  assert.throws(() => measureSeams([a], [span(b, 0, 3)]), /not in the corpus/);
});
