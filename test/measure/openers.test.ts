import { test } from "node:test";
import assert from "node:assert/strict";
import type { Doc } from "../../src/core/types";
import { measureBackwardOpeners, openingWord } from "../../src/measure/openers";
import { measureSeams } from "../../src/measure/seams";
import { span } from "./helpers";

test("the opening word skips whitespace, quotes and markdown markers", () => {
  assert.equal(openingWord("  > That's right."), "That");
  assert.equal(openingWord("- **This** one"), "This");
  assert.equal(openingWord("Thistle grows"), "Thistle");
  assert.equal(openingWord("123"), undefined);
});

test("only zero-overlap seams whose next chunk opens with a backward word count, with samples in order", () => {
  const text = "First part here.\n\nThis follows.\n\nThistle is a plant.\n\nIt ends. It ends.";
  const doc: Doc = { id: "d", text };
  const at = (s: string) => text.indexOf(s);
  const chunks = [
    span(doc, 0, at("\n\nThis")),
    span(doc, at("This follows"), at("\n\nThistle")), // zero overlap, opens with "This"
    span(doc, at("Thistle"), at("\n\nIt")), // zero overlap, "Thistle" is not a backward word
    span(doc, at("It ends"), text.length), // zero overlap, opens with "It"
    span(doc, text.lastIndexOf("It ends"), text.length), // overlaps its predecessor: not counted
  ];
  const seams = measureSeams([doc], chunks);
  const openers = measureBackwardOpeners([doc], chunks, seams, { maxSamples: 1 });
  assert.equal(openers.zeroOverlapSeams, 3);
  assert.equal(openers.backwardOpeners, 2);
  assert.deepEqual(openers.byWord, [
    { word: "It", count: 1 },
    { word: "This", count: 1 },
  ]);
  assert.deepEqual(openers.samples, [{ doc: "d", index: 0, word: "This", text: "This follows." }]);
});
