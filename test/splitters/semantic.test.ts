import assert from "node:assert/strict";
import { test } from "node:test";
import type { Doc } from "../../src/core/types";
import { Embedder, emptyInputReport } from "../../src/embed/types";
import { capSentences, groupSentences, splitSemantic } from "../../src/splitters/semantic";

test("sentences are grouped at low similarities, at the sentence cap, and with sentence overlap", () => {
  const sims = [0.9, 0.1, 0.8, 0.9];
  const base = { threshold: 0.5, maxSentences: 12, overlapSentences: 0 };
  assert.deepEqual(groupSentences(sims, 5, base), [
    [0, 1],
    [2, 4],
  ]);
  assert.deepEqual(groupSentences(sims, 5, { ...base, overlapSentences: 1 }), [
    [0, 1],
    [1, 4],
  ]);
  assert.deepEqual(groupSentences(sims, 5, { ...base, maxSentences: 2 }), [
    [0, 1],
    [2, 3],
    [4, 4],
  ]);
  assert.deepEqual(groupSentences(sims, 5, { ...base, maxSentences: 2, overlapSentences: 1 }), [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 4],
  ]);
  assert.deepEqual(groupSentences([], 1, base), [[0, 0]]);
});

/** Vectors by topic word: [cat, bond]. */
const topics: Embedder = {
  name: "topics",
  id: "topics",
  dimensions: 2,
  maxInputTokens: Infinity,
  inputs: emptyInputReport(),
  embed: async (texts) => texts.map((t) => Float32Array.from([/cat/i.test(t) ? 1 : 0.05, /bond/i.test(t) ? 1 : 0.05])),
};

const text =
  "The cat sat. A cat purred loudly. Cats sleep a lot.\n\nBond yields rose. The bond market fell. Bonds are debt.";
const doc: Doc = { id: "d1", text };

test("the semantic splitter breaks where the topic changes, with exact spans", async () => {
  const chunks = await splitSemantic([doc], { threshold: { similarity: 0.5 } }, topics);
  assert.deepEqual(
    chunks.map((c) => c.text),
    ["The cat sat. A cat purred loudly. Cats sleep a lot.", "Bond yields rose. The bond market fell. Bonds are debt."],
  );
  for (const c of chunks) assert.equal(c.text, text.slice(c.start, c.end));
  assert.equal(chunks[1].start, text.indexOf("Bond"));
});

test("a percentile threshold breaks at the document's least similar neighbours", async () => {
  // Similarities: 1, 1, ~0.1, 1, 1 — the 10th percentile lies between the one low value and the rest.
  const chunks = await splitSemantic([doc], { threshold: { percentile: 10 } }, topics);
  assert.equal(chunks.length, 2);
});

test("sentence overlap repeats the last sentence(s) of a chunk at the start of the next", async () => {
  const chunks = await splitSemantic([doc], { threshold: { similarity: 0.5 }, overlapSentences: 1 }, topics);
  assert.equal(chunks.length, 2);
  assert.equal(chunks[1].start, text.indexOf("Cats sleep"));
  assert.ok(chunks[0].end > chunks[1].start, "the chunks overlap by one sentence");
});

test("maxLength caps every chunk, cutting an over-long sentence at spaces", async () => {
  // Similarity 0 never breaks on topic here (all cosines are positive): only the 40-char cap splits.
  const chunks = await splitSemantic([doc], { threshold: { similarity: 0 }, maxLength: 40 }, topics);
  assert.deepEqual(
    chunks.map((c) => c.text),
    [
      "The cat sat. A cat purred loudly.",
      "Cats sleep a lot.\n\nBond yields rose.",
      "The bond market fell. Bonds are debt.",
    ],
  );
  // A sentence longer than the cap is cut at the last space before it, so no chunk exceeds 10 chars.
  const long = await splitSemantic(
    [{ id: "x", text: "A very long sentence about a cat that goes on. Short." }],
    { maxLength: 10 },
    topics,
  );
  assert.deepEqual(
    long.map((c) => c.text),
    ["A very", "long", "sentence", "about a", "cat that", "goes on.", "Short."],
  );
});

test("over-long sentences are cut within a token limit too", () => {
  const text = "word ".repeat(30).trim();
  const pieces = capSentences(text, [{ start: 0, end: text.length }], "tokens", 8);
  assert.ok(pieces.length >= 4);
  for (const p of pieces) assert.ok(text.slice(p.start, p.end).split(" ").length <= 8, text.slice(p.start, p.end));
  assert.equal(
    pieces.map((p) => text.slice(p.start, p.end)).join(" "),
    text,
    "pieces cover the sentence, split at spaces",
  );
});
