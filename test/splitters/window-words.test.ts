// Hand-worked examples of this splitter's exact spans are in test/fixtures/splitters/window-words.txt (fixtures.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { splitWindowWords } from "../../src/splitters/window-words";
import { isWordBoundary } from "../../src/text/words";
import { pinnedCorpus, sampleDocs } from "../helpers/corpora";

test("window-words chunks start and end on word boundaries and together cover every character", () => {
  for (const doc of [...sampleDocs(pinnedCorpus("fastify-docs"), 5), ...sampleDocs(pinnedCorpus("moby-dick"), 20)]) {
    const chunks = splitWindowWords(doc, { splitter: "window-words", size: 500, overlap: 100 });
    let covered = 0;
    for (const c of chunks) {
      assert.equal(c.text, doc.text.slice(c.start, c.end));
      assert.ok(c.start <= covered, `${doc.id}: gap before ${c.start}`);
      covered = Math.max(covered, c.end);
      // An edge may only cut a word longer than the window.
      if (!isWordBoundary(doc.text, c.start) || !isWordBoundary(doc.text, c.end)) {
        assert.ok(/\S{500,}/.test(doc.text.slice(Math.max(0, c.start - 500), c.end + 500)), `${doc.id} ${c.start}`);
      }
    }
    assert.equal(covered, doc.text.length);
  }
});

test("window-words never exceeds the size, even across long unbroken runs (base64, URLs), and leaves no gap", () => {
  const long = "word ".repeat(50) + "x".repeat(2500) + " tail words here".repeat(20);
  for (const [size, overlap] of [
    [1000, 200],
    [100, 0],
    [64, 63],
  ]) {
    const chunks = splitWindowWords({ id: "d", text: long }, { splitter: "window-words", size, overlap });
    let covered = 0;
    for (const [i, c] of chunks.entries()) {
      assert.ok(c.end - c.start <= size, `chunk ${i} is ${c.end - c.start} > ${size}`);
      assert.ok(c.start <= covered, `gap before ${c.start}`);
      if (i > 0)
        assert.ok(c.end > chunks[i - 1].end && c.start > chunks[i - 1].start, `chunk ${i} inside its predecessor`);
      covered = Math.max(covered, c.end);
    }
    assert.equal(covered, long.length);
  }
  for (const doc of pinnedCorpus("fastify-docs")) {
    for (const c of splitWindowWords(doc, { splitter: "window-words", size: 1000, overlap: 200 }))
      assert.ok(c.end - c.start <= 1000);
  }
});

test("window-words rejects token units", () => {
  assert.throws(
    () =>
      splitWindowWords({ id: "d", text: "a b" }, { splitter: "window-words", size: 10, overlap: 3, unit: "tokens" }),
    /--unit chars/,
  );
});
