import assert from "node:assert/strict";
import { test } from "node:test";
import type { Chunk } from "../../src/core/types";
import { fitLsa } from "../../src/embed/lsa";
import {
  neighbourRowsFromVectors,
  neighbourSimilarity,
  summariseNeighbours,
} from "../../src/measure/neighbour-similarity";

const chunk = (doc: string, start: number, end: number): Chunk => ({ doc, start, end, text: "x".repeat(end - start) });

test("neighbours are paired within a document by span order, with their real overlap", () => {
  // Given out of order and across two docs.
  const chunks = [chunk("a", 80, 100), chunk("a", 0, 50), chunk("b", 0, 10), chunk("a", 40, 90)];
  const v = (x: number, y: number) => Float32Array.from([x, y]);
  const vectors = [v(0, 1), v(1, 0), v(1, 1), v(1, 1)];
  const rows = neighbourRowsFromVectors(chunks, vectors, "toy");
  assert.deepEqual(
    rows.map(({ doc, first, second, realOverlap, overlapShare }) => ({
      doc,
      first,
      second,
      realOverlap,
      overlapShare,
    })),
    [
      { doc: "a", first: 1, second: 3, realOverlap: 10, overlapShare: 10 / 50 },
      { doc: "a", first: 3, second: 0, realOverlap: 10, overlapShare: 10 / 20 },
    ],
  );
  assert.ok(Math.abs(rows[0].similarity - Math.SQRT1_2) < 1e-6);
  assert.equal(rows[0].embedder, "toy");
});

test("the summary separates overlapping from disjoint pairs and correlates share with similarity", () => {
  const rows = [
    { doc: "a", first: 0, second: 1, realOverlap: 0, overlapShare: 0, similarity: 0.2, embedder: "e" },
    { doc: "a", first: 1, second: 2, realOverlap: 5, overlapShare: 0.5, similarity: 0.6, embedder: "e" },
    { doc: "a", first: 2, second: 3, realOverlap: 10, overlapShare: 1, similarity: 1.0, embedder: "e" },
  ];
  const s = summariseNeighbours(rows);
  assert.equal(s.pairs, 3);
  assert.equal(s.overlappingPairs, 2);
  assert.ok(Math.abs(s.meanSimilarityOverlapping - 0.8) < 1e-12);
  assert.equal(s.meanSimilarityDisjoint, 0.2);
  assert.ok(Math.abs(s.correlation - 1) < 1e-12, "perfectly linear");
});

test("with real text, overlapping neighbours are more alike than disjoint ones", async () => {
  const words = Array.from({ length: 400 }, (_, i) => `w${(i * 7919) % 97}`).join(" ");
  const spans: [number, number][] = [];
  for (let s = 0; s + 200 <= words.length; s += 150) spans.push([s, s + 200]); // 50 chars shared
  const overlapped = spans.map(([s, e]) => ({ doc: "o", start: s, end: e, text: words.slice(s, e) }));
  const disjoint = spans.map(([s], i) => ({
    doc: "d",
    start: i * 1000,
    end: i * 1000 + 150,
    text: words.slice(s, s + 150),
  }));
  const all = [...overlapped, ...disjoint];
  const lsa = fitLsa(
    all.map((c) => c.text),
    { dimensions: 16, minDocumentFrequency: 1 },
  );
  const s = summariseNeighbours(await neighbourSimilarity(all, lsa));
  assert.ok(s.meanSimilarityOverlapping > s.meanSimilarityDisjoint, JSON.stringify(s));
  assert.match(s.embedder, /^lsa-16/);
});
