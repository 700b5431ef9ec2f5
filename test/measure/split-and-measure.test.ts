import { test } from "node:test";
import assert from "node:assert/strict";
import type { Doc } from "../../src/core/types";
import { measureSplitterConfig } from "../../src/measure/split-and-measure";

// The seed's repro: three 599-character paragraphs ("AAAAAAAAA AAAAAAAAA ..." x 60) at 1000/200.
const paragraph = (letter: string) => Array(60).fill(letter.repeat(9)).join(" ");
const doc: Doc = { id: "three.md", text: [paragraph("A"), paragraph("B"), paragraph("C")].join("\n\n") };

test("LangChain at 1000/200 on three 599-char paragraphs gives three chunks and two seams sharing nothing", () => {
  const measured = measureSplitterConfig([doc], { splitter: "langchain", size: 1000, overlap: 200 });
  assert.equal(paragraph("A").length, 599);
  const s = measured.summary;
  assert.deepEqual([s.chunks, s.seams, s.zeroOverlapSeams, s.zeroOverlapPct, s.meanOverlap], [3, 2, 2, 100, 0]);
  assert.equal(s.realisedOverlapRatio, 0);
  assert.equal(s.gapSeams, 2); // the "\n\n" between paragraphs
  assert.equal(s.lostChars, 0);
  // Both straddling pairs ("AAAAAAAAA ... AAAAAAAAA" is one sentence per paragraph) are cut.
  assert.deepEqual([measured.seamDamage.pairs, measured.seamDamage.kept], [2, 0]);
  assert.equal(measured.paragraphs.overBudgetPct, 100);
});

test("a window over the same text overlaps by exactly 200 at every seam", () => {
  const measured = measureSplitterConfig([doc], { splitter: "window", size: 1000, overlap: 200 });
  assert.equal(measured.summary.zeroOverlapSeams, 0);
  assert.equal(measured.summary.meanOverlap, 200);
  assert.equal(measured.summary.overlapHistogram.find((b) => b.label === "180-200")!.count, measured.summary.seams);
});
