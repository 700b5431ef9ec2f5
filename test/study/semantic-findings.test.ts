import test from "node:test";
import assert from "node:assert/strict";
import { hitRateFinding } from "../../src/study/semantic";
import type { ArmRetrieval, ChunkingArm } from "../../src/study/semantic";

const QUERIES = 300;
const arm = (label: string) => ({ label }) as unknown as ChunkingArm;
function result(label: string, retriever: string, hit: (i: number) => boolean): ArmRetrieval {
  const hits = Array.from({ length: QUERIES }, (_, i) => hit(i));
  const rate = hits.filter(Boolean).length / QUERIES;
  return { arm: label, retriever, summary: { hitRate: rate }, hits } as unknown as ArmRetrieval;
}

const arms = [arm("semantic (lsa)"), arm("recursive 1000/200"), arm("recursive 300/0")];
const half = (i: number) => i % 2 === 0;

test("06 calls semantic chunking better than the size-matched arm only when the paired CI says so", () => {
  const results = [
    result("semantic (lsa)", "BM25", (i) => half(i) || i % 3 === 1), // +1/3 of the misses: clearly better
    result("semantic (lsa)", "dense (lsa, not neural)", (i) => half(i) || i === 1), // one query: noise
    result("recursive 1000/200", "BM25", half),
    result("recursive 1000/200", "dense (lsa, not neural)", half),
    result("recursive 300/0", "BM25", half),
    result("recursive 300/0", "dense (lsa, not neural)", half),
  ];
  const text = hitRateFinding(results, arms, 5);
  assert.match(text, /on the same 300 queries, with BM25: \+16\.7 points \(paired 95% CI \+\d+\.\d to \+\d+\.\d/);
  assert.match(text, /with BM25: [^;]*semantic chunking is shown better;/);
  assert.match(text, /with dense: \+0\.3 points [^)]*\): the data cannot tell them apart\.$/);
});
