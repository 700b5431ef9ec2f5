import { test } from "node:test";
import assert from "node:assert/strict";
import { splitWindowWords } from "../../src/splitters/window-words";
import { isWordBoundary } from "../../src/text/words";
import { loadCorpus, sampleDocs } from "./corpus-files";

test("window-words moves both edges of the 10/3 fox windows back to word starts", () => {
  // Nominal windows [0,10) [7,17) [14,24) [21,31) [28,38) [35,43), each edge moved back to a word boundary by hand.
  const chunks = splitWindowWords(
    { id: "fox", text: "The quick brown fox jumps over the lazy dog" },
    { splitter: "window-words", size: 10, overlap: 3 },
  );
  assert.deepEqual(
    chunks.map((c) => [c.start, c.end, c.text]),
    [
      [0, 10, "The quick "],
      [4, 16, "quick brown "],
      [10, 20, "brown fox "],
      [20, 31, "jumps over "],
      [26, 35, "over the "],
      [35, 43, "lazy dog"],
    ],
  );
});

test("window-words chunks start and end on word boundaries and together cover every character", () => {
  for (const doc of sampleDocs(loadCorpus("tts-handbook"), 10)) {
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

test("window-words rejects token units", () => {
  assert.throws(
    () => splitWindowWords({ id: "d", text: "a b" }, { splitter: "window-words", size: 10, overlap: 3, unit: "tokens" }),
    /--unit chars/,
  );
});
