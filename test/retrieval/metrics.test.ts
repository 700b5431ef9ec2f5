import { test } from "node:test";
import assert from "node:assert/strict";
import {
  chunkTermIds,
  containsSpan,
  distinctPassages,
  jaccard,
  mergeSpans,
  nearDuplicateCount,
  sortedIdJaccard,
  spanScoresChroma,
  spanScoresMerged,
  termSet,
} from "../../src/retrieval/metrics";

const span = (start: number, end: number, doc = "d") => ({ doc, start, end });

test("a chunk contains a gold span only when it covers all of it in the same document", () => {
  assert.ok(containsSpan(span(0, 100), span(10, 100)));
  assert.ok(!containsSpan(span(0, 100), span(90, 101)));
  assert.ok(!containsSpan(span(0, 100, "other"), span(10, 20)));
});

test("merging sorts spans and joins overlapping and touching ones per document", () => {
  assert.deepEqual(mergeSpans([span(50, 60), span(0, 10), span(10, 20), span(15, 30), span(0, 5, "e")]), [
    span(0, 30),
    span(50, 60),
    span(0, 5, "e"),
  ]);
});

test("span scores merged and chroma-style differ exactly by how overlapping chunk text is counted", () => {
  // chunks [0,100) and [80,180) overlap by 20; gold [90,120) and [300,310)
  const retrieved = [span(0, 100), span(80, 180)];
  const gold = [span(90, 120), span(300, 310)];
  // shared = 30 (90..120); gold total 40; merged retrieved 180; union 180 + 40 - 30 = 190
  const merged = spanScoresMerged(retrieved, gold);
  assert.equal(merged.recall, 30 / 40);
  assert.equal(merged.precision, 30 / 180);
  assert.equal(merged.iou, 30 / 190);
  // chroma: retrieved summed = 200; unused gold = 10; iou = 30 / (200 + 10)
  const chroma = spanScoresChroma(retrieved, gold);
  assert.equal(chroma.recall, 30 / 40);
  assert.equal(chroma.precision, 30 / 200);
  assert.equal(chroma.iou, 30 / 210);
});

test("chroma-style precision counts chunks from other documents in its denominator", () => {
  const scores = spanScoresChroma([span(0, 50), span(0, 50, "other")], [span(10, 20)]);
  assert.equal(scores.precision, 10 / 100);
  assert.equal(scores.recall, 1);
  assert.equal(scores.iou, 10 / 100);
});

test("distinct passages are k minus the chunks overlapping a higher-ranked one", () => {
  // 2nd overlaps 1st; 3rd only touches 2nd (no shared character); 4th is another doc; 5th overlaps 3rd
  assert.equal(distinctPassages([span(0, 100), span(50, 120), span(120, 150), span(0, 100, "e"), span(140, 160)]), 3);
  assert.equal(distinctPassages([]), 0);
});

test("near-duplicates are chunks whose term-set Jaccard with a higher-ranked one reaches the threshold", () => {
  const a = termSet("the collector exports traces");
  const b = termSet("The collector exports traces!"); // same terms: 1.0
  const c = termSet("the collector exports metrics"); // 3 of 5: 0.6
  const d = termSet("logs");
  assert.equal(jaccard(a, c), 3 / 5);
  assert.equal(nearDuplicateCount([a, b, c, d], 0.6), 2);
  assert.equal(nearDuplicateCount([a, b, c, d], 0.7), 1);
});

test("sortedIdJaccard on ascending distinct ids equals jaccard on the sets, and nearDuplicateCount takes it", () => {
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const sets: Set<number>[] = [];
  for (let n = 0; n < 40; n++) {
    const set = new Set<number>();
    const size = Math.floor(next() * 12);
    for (let i = 0; i < size; i++) set.add(Math.floor(next() * 16));
    sets.push(set);
  }
  const sorted = sets.map((set) => Int32Array.from([...set].sort((a, b) => a - b)));
  const similar = [0, 0];
  for (let i = 0; i < sets.length; i++)
    for (let j = 0; j < i; j++) {
      assert.equal(sortedIdJaccard(sorted[i], sorted[j]), jaccard(sets[i], sets[j]));
      similar[jaccard(sets[i], sets[j]) >= 0.5 ? 1 : 0]++;
    }
  assert.ok(similar[0] > 0 && similar[1] > 0, `pairs on both sides of 0.5: ${similar}`);
  for (const threshold of [0.3, 0.5, 0.7, 1]) {
    assert.equal(
      nearDuplicateCount(sorted, threshold, sortedIdJaccard),
      nearDuplicateCount(sets as Set<unknown>[] as Set<string>[], threshold),
    );
  }
  assert.equal(sortedIdJaccard(new Int32Array(0), new Int32Array(0)), 1);
  assert.equal(sortedIdJaccard(Int32Array.from([1, 2]), new Int32Array(0)), 0);
});

test("chunkTermIds: one id set per chunk text, kept for later calls and other arrays, with termSet's Jaccard", () => {
  const chunks = [
    { text: "The cat sat on the mat" },
    { text: "the CAT sat, the cat sat" },
    { text: "Ünïcode wörds and 42 numbers" },
    { text: "" },
  ];
  const first = chunks.map((_, i) => chunkTermIds(chunks, i));
  chunks.forEach((_, i) => assert.equal(chunkTermIds(chunks, i), first[i], `chunk ${i} is computed again`));
  for (const ids of first) for (let i = 1; i < ids.length; i++) assert.ok(ids[i] > ids[i - 1]);
  for (let i = 0; i < chunks.length; i++)
    for (let j = 0; j < chunks.length; j++) {
      const expected = jaccard(termSet(chunks[i].text), termSet(chunks[j].text));
      assert.equal(sortedIdJaccard(first[i], first[j]), expected, `chunks ${i} and ${j}`);
    }
  // Another array shares the sets of equal texts, and its other texts' ids compare with the first array's.
  const other = [chunks[1], { text: "a mat, the cat" }, { ...chunks[0] }];
  assert.equal(chunkTermIds(other, 0), first[1]);
  assert.equal(chunkTermIds(other, 2), first[0]);
  for (const [i, chunk] of chunks.entries()) {
    const expected = jaccard(termSet(chunk.text), termSet(other[1].text));
    assert.equal(sortedIdJaccard(first[i], chunkTermIds(other, 1)), expected, `chunk ${i} and a new text`);
  }
});
