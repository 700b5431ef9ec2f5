// Hand-worked examples of this splitter's exact spans are in test/fixtures/splitters/window.txt (fixtures.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { splitWindow, windowSpans } from "../../src/splitters/window";
import { pinnedCorpus, sampleDocs } from "../helpers/corpora";

test("window seams overlap exactly `overlap` characters on real documents", () => {
  for (const doc of sampleDocs(pinnedCorpus("fastify-docs"), 4)) {
    const chunks = splitWindow(doc, { splitter: "window", size: 1000, overlap: 200 });
    for (let i = 1; i < chunks.length; i++) {
      assert.equal(chunks[i - 1].end - chunks[i].start, 200, `${doc.id} seam ${i}`);
      assert.equal(chunks[i - 1].text.slice(-200), chunks[i].text.slice(0, 200));
    }
    if (chunks.length > 0) assert.equal(chunks[chunks.length - 1].end, doc.text.length);
  }
});

test("no window chunk lies wholly inside its predecessor, whatever the length", () => {
  for (let length = 0; length < 60; length++) {
    const spans = windowSpans(length, 10, 3);
    for (let i = 1; i < spans.length; i++) assert.ok(spans[i][1] > spans[i - 1][1], `length ${length}`);
    if (length > 0) assert.equal(spans[spans.length - 1][1], length);
  }
});

test("an empty document has no window chunks and a short one has a single chunk", () => {
  assert.deepEqual(splitWindow({ id: "e", text: "" }, { splitter: "window", size: 10, overlap: 3 }), []);
  assert.deepEqual(splitWindow({ id: "s", text: "short" }, { splitter: "window", size: 10, overlap: 3 }), [
    { doc: "s", start: 0, end: 5, text: "short" },
  ]);
});
