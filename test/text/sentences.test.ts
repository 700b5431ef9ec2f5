import { test } from "node:test";
import assert from "node:assert/strict";
import { firstSentence, lastSentence, sentenceRegions } from "../../src/text/sentences";
import { seededRandom } from "../../src/core/random";
import { assertScalesLinearly } from "../helpers/scaling";

function directSentences(text: string): string[] {
  const out: string[] = [];
  for (const s of new Intl.Segmenter("en", { granularity: "sentence" }).segment(text)) {
    const trimmed = s.segment.trim();
    if (trimmed) out.push(trimmed);
  }
  return out;
}

function prose(length: number, seed: number): string {
  const random = seededRandom(seed);
  const words = ["the", "whale", "ship", "Ahab", "sea", "sailed", "Mr.", "e.g.", "over", "3.5", "harpoon", "white"];
  let text = "";
  while (text.length < length) {
    const n = 3 + Math.floor(random() * 15);
    const sentence = Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(" ");
    const end = [". ", "? ", "! ", ".\n", ".\n\n"][Math.floor(random() * 5)];
    text += sentence[0].toUpperCase() + sentence.slice(1) + end;
  }
  return text;
}

test("sentences get exact trimmed offsets into the text", () => {
  const text = "Hello there. How are you?  Fine!";
  assert.deepEqual(sentenceRegions(text), [
    { start: 0, end: 12 },
    { start: 13, end: 25 },
    { start: 27, end: 32 },
  ]);
});

test("windowed segmentation gives the same sentences as one Intl.Segmenter pass over the whole text", () => {
  const text = prose(30_000, 7); // several 4096-char windows
  const mine = sentenceRegions(text).map((r) => text.slice(r.start, r.end));
  assert.deepEqual(mine, directSentences(text));
});

test("a region inside the text is segmented with offsets into the whole text", () => {
  const text = "Skip this. Keep one. Keep two.";
  const regions = sentenceRegions(text, 11, text.length);
  assert.deepEqual(
    regions.map((r) => text.slice(r.start, r.end)),
    ["Keep one.", "Keep two."],
  );
});

test("first and last sentence of a long paragraph match the full segmentation", () => {
  const text = prose(20_000, 3).replace(/\n/g, " ");
  const all = directSentences(text);
  const first = firstSentence(text, 0, text.length)!;
  const last = lastSentence(text, 0, text.length)!;
  assert.equal(text.slice(first.start, first.end), all[0]);
  assert.equal(text.slice(last.start, last.end), all[all.length - 1]);
  assert.equal(firstSentence("   ", 0, 3), undefined);
});

test("segmenting costs linear time: 1.2 M characters cost about five times 240 k (Intl.Segmenter alone is quadratic)", () => {
  const small = prose(240_000, 11);
  const large = prose(1_200_000, 11);
  let regions = 0;
  assertScalesLinearly(
    "sentenceRegions",
    () => void sentenceRegions(small),
    () => void (regions = sentenceRegions(large).length),
    { factor: 5 },
  );
  assert.ok(regions > 10_000, `only ${regions} sentences`);
});
