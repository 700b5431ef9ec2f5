import { test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk, Doc } from "../../src/core/types";
import { seededRandom } from "../../src/core/random";
import { measureSeamDamage, straddlingPairs } from "../../src/measure/pairs";
import { span } from "./helpers";

const text = "A one. A two.\n\nB one. B two.\n\nC one.";
const doc: Doc = { id: "d", text };

test("straddling pairs join the last sentence of a paragraph to the first of the next", () => {
  const pairs = straddlingPairs([doc]).map((p) => text.slice(p.start, p.end));
  assert.deepEqual(pairs, ["A two.\n\nB one.", "B two.\n\nC one."]);
});

test("a pair is kept when one chunk holds both sentences, and split when chunks cut at the break", () => {
  const cutAtBreaks = [span(doc, 0, 13), span(doc, 15, 28), span(doc, 30, 36)];
  assert.deepEqual(measureSeamDamage([doc], cutAtBreaks), { pairs: 2, kept: 0, keptPct: 0, split: 2 });
  const window = [span(doc, 0, 21), span(doc, 15, 36)];
  assert.deepEqual(measureSeamDamage([doc], window), { pairs: 2, kept: 2, keptPct: 100, split: 0 });
  const oneKept = [span(doc, 0, 21), span(doc, 23, 36)]; // the second starts one char into "B two."
  assert.equal(measureSeamDamage([doc], oneKept).kept, 1);
});

test("seam damage equals a brute-force containment check on random chunks", () => {
  const random = seededRandom(9);
  const sentences = ["Call me Ishmael.", "It is a way I have.", "Whenever I find myself growing grim.", "So."];
  for (let round = 0; round < 30; round++) {
    const paragraphs = Array.from({ length: 8 }, () =>
      Array.from({ length: 1 + Math.floor(random() * 3) }, () => sentences[Math.floor(random() * 4)]).join(" "),
    );
    const d: Doc = { id: `r${round}`, text: paragraphs.join("\n\n") };
    const chunks: Chunk[] = Array.from({ length: 5 }, () => {
      const start = Math.floor(random() * d.text.length);
      return span(d, start, Math.min(d.text.length, start + 20 + Math.floor(random() * 120)));
    });
    const pairs = straddlingPairs([d]);
    assert.equal(pairs.length, 7);
    const expected = pairs.filter((p) => chunks.some((c) => c.start <= p.start && c.end >= p.end)).length;
    assert.equal(measureSeamDamage([d], chunks).kept, expected);
  }
});

test("straddling pairs of short and window-long paragraphs use each paragraph's first and last sentence", () => {
  const short = "One short sentence. Then a second one.";
  // Longer than one segmentation window (4,096 characters): its ends are found by probing, not by segmenting it whole.
  const long = Array.from({ length: 200 }, (_, i) => `Sentence number ${i} of a long paragraph goes here.`).join(" ");
  const text = [short, long, short, "Alone."].join("\n\n");
  const pairs = straddlingPairs([{ id: "d", text }]);
  const sentence = (s: string, from: number) => {
    const start = text.indexOf(s, from);
    return { start, end: start + s.length };
  };
  const longStart = text.indexOf(long);
  const secondShort = text.indexOf(short, longStart + long.length);
  const expected = [
    [sentence("Then a second one.", 0), sentence("Sentence number 0 of a long paragraph goes here.", longStart)],
    [
      sentence("Sentence number 199 of a long paragraph goes here.", longStart),
      sentence("One short sentence.", secondShort),
    ],
    [sentence("Then a second one.", secondShort), sentence("Alone.", secondShort)],
  ].map(([a, b]) => ({ doc: "d", start: a.start, end: b.end }));
  assert.ok(long.length > 4096);
  assert.deepEqual(pairs, expected);
});
