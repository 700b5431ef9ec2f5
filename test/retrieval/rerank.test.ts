import { test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk } from "../../src/core/types";
import {
  checkRerankerName,
  chunkRedundancy,
  loadReranker,
  mmrReranker,
  noneReranker,
} from "../../src/retrieval/rerank";
import { SeamlabError } from "../../src/core/errors";

const doc = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau";
const chunk = (d: string, start: number, end: number, text = doc.slice(start, end)): Chunk => ({
  doc: d,
  start,
  end,
  text,
});

test("the none reranker keeps first-stage order and cuts to k", () => {
  const candidates = [
    { index: 2, score: 3 },
    { index: 0, score: 2 },
    { index: 1, score: 1 },
  ];
  assert.deepEqual(noneReranker().rerank("q", candidates, [], 2), candidates.slice(0, 2));
});

test("chunk redundancy is the covered share of the shorter span, or word Jaccard across documents", () => {
  // Spans [0,40) and [20,50) share 20 chars; the shorter is 30 long => 2/3.
  const a = chunk("d", 0, 40, "x");
  const b = chunk("d", 20, 50, "y");
  assert.ok(Math.abs(chunkRedundancy(a, b) - 2 / 3) < 1e-12);
  // Different docs: Jaccard of {the, cat, sat} and {the, cat, ran} = 2 / 4.
  assert.equal(chunkRedundancy(chunk("d1", 0, 5, "The cat sat"), chunk("d2", 0, 5, "the CAT ran")), 0.5);
  // Touching spans share nothing.
  assert.equal(chunkRedundancy(chunk("d", 0, 10, "a"), chunk("d", 10, 20, "b")), 0);
});

test("MMR drops a span-overlapping near-duplicate in favour of a distinct passage", () => {
  const chunks: Chunk[] = [
    chunk("d", 0, 40), // best
    chunk("d", 10, 45), // overlaps chunk 0 heavily
    { doc: "other", start: 0, end: 30, text: "completely different words here" },
  ];
  const candidates = [
    { index: 0, score: 10 },
    { index: 1, score: 9.5 },
    { index: 2, score: 9 },
  ];
  const picked = mmrReranker({ lambda: 0.5 }).rerank("q", candidates, chunks, 2) as { index: number }[];
  // Hand-computed: relevance 1, 0.5, 0; after picking 0, sim(1,0) = 30/35 ~ 0.857, sim(2,0) = 0.
  // MMR(1) = 0.25 - 0.43 < MMR(2) = 0 - 0 => chunk 2 second.
  assert.deepEqual(
    picked.map((c) => c.index),
    [0, 2],
  );
  // lambda = 1 is pure relevance: first-stage order.
  const plain = mmrReranker({ lambda: 1 }).rerank("q", candidates, chunks, 2) as { index: number }[];
  assert.deepEqual(
    plain.map((c) => c.index),
    [0, 1],
  );
});

test("MMR breaks ties by first-stage rank and returns at most k", () => {
  const chunks = [0, 1, 2, 3].map((i) => ({ doc: `d${i}`, start: 0, end: 1, text: `w${i}` }));
  const candidates = [3, 1, 2, 0].map((index) => ({ index, score: 5 }));
  const picked = mmrReranker().rerank("q", candidates, chunks, 3) as { index: number }[];
  assert.deepEqual(
    picked.map((c) => c.index),
    [3, 1, 2],
  );
  assert.deepEqual(mmrReranker().rerank("q", [], chunks, 3), []);
});

test("loadReranker builds rerankers by name and names the known ones on a typo", async () => {
  assert.equal((await loadReranker("none")).name, "none");
  assert.equal((await loadReranker("mmr", { lambda: 0.7 })).name, "mmr(lambda=0.7)");
  await assert.rejects(
    loadReranker("dense-xyz"),
    (e: unknown) => e instanceof SeamlabError && /none, mmr, dense/.test(e.message),
  );
  await assert.rejects(loadReranker("toString"), SeamlabError);
  assert.throws(() => mmrReranker({ lambda: 2 }), /lambda/);
});

test("loadReranker loads the dense reranker lazily by name and rejects unknown names", async () => {
  const dense = await loadReranker("dense");
  assert.match(dense.name, /^dense\(lsa/);
  assert.equal((await loadReranker("mmr")).name, "mmr(lambda=0.5)");
  await assert.rejects(loadReranker("nope"), SeamlabError);
  assert.throws(() => checkRerankerName("nope"), /Known: none, mmr, dense/);
  assert.doesNotThrow(() => checkRerankerName("dense"));
});

test("MMR's picks are those of a greedy MMR over chunkRedundancy (sorted word ids give the same Jaccard)", async () => {
  const { seededRandom } = await import("../../src/core/random");
  const random = seededRandom(5);
  const vocabulary = ["Alpha", "beta", "gamma", "delta", "Epsilon", "zeta", "ETA", "theta", "iota", "kappa", "ü", "42"];
  const text = Array.from({ length: 3000 }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(" ");
  const chunks: Chunk[] = Array.from({ length: 60 }, (_, i) => {
    const start = Math.floor(random() * (text.length - 300));
    const end = start + 20 + Math.floor(random() * 280);
    return { doc: `d${i % 4}`, start, end, text: text.slice(start, end) };
  });
  const lambda = 0.4;
  const reference = (candidates: { index: number; score: number }[], k: number) => {
    const top = Math.max(...candidates.map((c) => c.score));
    const bottom = Math.min(...candidates.map((c) => c.score));
    const relevance = (score: number) => (top === bottom ? 1 : (score - bottom) / (top - bottom));
    const remaining = candidates.map((c) => ({ c, maxSim: 0 }));
    const picked: typeof candidates = [];
    while (picked.length < k && remaining.length > 0) {
      let bestAt = 0;
      remaining.forEach((r, i) => {
        const best = remaining[bestAt];
        const value = lambda * relevance(r.c.score) - (1 - lambda) * r.maxSim;
        if (value > lambda * relevance(best.c.score) - (1 - lambda) * best.maxSim) bestAt = i;
      });
      const [chosen] = remaining.splice(bestAt, 1);
      picked.push(chosen.c);
      for (const r of remaining)
        r.maxSim = Math.max(r.maxSim, chunkRedundancy(chunks[chosen.c.index], chunks[r.c.index]));
    }
    return picked;
  };
  const mmr = mmrReranker({ lambda });
  for (let query = 0; query < 40; query++) {
    const candidates = Array.from({ length: 20 }, () => ({
      index: Math.floor(random() * chunks.length),
      score: Math.round(random() * 8) / 2,
    }));
    assert.deepEqual(mmr.rerank("q", candidates, chunks, 6), reference(candidates, 6), `query ${query}`);
  }
});
