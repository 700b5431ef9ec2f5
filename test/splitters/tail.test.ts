// Hand-worked examples of this splitter's exact spans are in test/fixtures/splitters/tail.txt (fixtures.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { splitRecursive, splitTail } from "../../src/splitters/recursive";
import { countTokens } from "../../src/text/tokens";
import { pinnedCorpus } from "../helpers/corpora";

test("tail leaves no zero-overlap seam on fastify-docs at 1000/200 and tails stay within the budget", () => {
  let seams = 0;
  for (const doc of pinnedCorpus("fastify-docs")) {
    const base = splitRecursive(doc, { splitter: "recursive", size: 1000, overlap: 0 });
    const chunks = splitTail(doc, { splitter: "tail", size: 1000, overlap: 200 });
    assert.equal(chunks.length, base.length);
    for (let i = 0; i < chunks.length; i++) {
      assert.equal(chunks[i].end, base[i].end);
      assert.equal(chunks[i].text, doc.text.slice(chunks[i].start, chunks[i].end));
      if (i === 0) continue;
      seams++;
      assert.ok(chunks[i - 1].end > chunks[i].start, `${doc.id} seam ${i} shares nothing`);
      assert.ok(base[i - 1].end - chunks[i].start <= 200, "tail longer than the overlap");
      // A tail starts at a word unless the previous chunk's last 200 chars hold no word start (a long URL).
      const tailRegion = doc.text.slice(base[i - 1].end - 200, base[i - 1].end);
      if (/\s\S/.test(tailRegion)) assert.ok(/\s/.test(doc.text[chunks[i].start - 1]), "tail starts mid-word");
    }
  }
  assert.ok(seams > 500, `${seams} seams`);
});

test("with token units the tail holds at most `overlap` tokens of the previous chunk", () => {
  const doc = pinnedCorpus("fastify-docs").find((d) => d.id.endsWith("Reference/Hooks.md"))!;
  const base = splitRecursive(doc, { splitter: "recursive", size: 200, overlap: 0, unit: "tokens" });
  const chunks = splitTail(doc, { splitter: "tail", size: 200, overlap: 30, unit: "tokens" });
  assert.ok(chunks.length > 2);
  for (let i = 1; i < chunks.length; i++) {
    const tail = doc.text.slice(chunks[i].start, base[i - 1].end);
    assert.ok(tail.length > 0 && countTokens(tail) <= 31, `${countTokens(tail)} tokens`);
  }
});
