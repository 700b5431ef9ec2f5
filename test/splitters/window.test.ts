import { test } from "node:test";
import assert from "node:assert/strict";
import { splitWindow, windowSpans } from "../../src/splitters/window";
import { pinnedCorpus, sampleDocs } from "../helpers/corpora";

const fox = { id: "fox", text: "The quick brown fox jumps over the lazy dog" };

test("the seed-003 trace at 10/3 gives its chunks without the degenerate trailing 'g'", () => {
  // Hand-checked against the string's indices (the seed's own chunk texts from step 3 on are misprinted:
  // text[14..24) is "n fox jump", not "own fox ju"). Its step 7 chunk "g" [42, 43) lies inside [35, 43).
  const chunks = splitWindow(fox, { splitter: "window", size: 10, overlap: 3 });
  assert.deepEqual(
    chunks.map((c) => [c.start, c.end, c.text]),
    [
      [0, 10, "The quick "],
      [7, 17, "ck brown f"],
      [14, 24, "n fox jump"],
      [21, 31, "umps over "],
      [28, 38, "er the laz"],
      [35, 43, "lazy dog"],
    ],
  );
});

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
