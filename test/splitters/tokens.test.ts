import { test } from "node:test";
import assert from "node:assert/strict";
import { splitTokens } from "../../src/splitters/window";
import { encodeTokens, getEncoding } from "../../src/text/tokens";
import { pinnedCorpus, sampleDocs } from "../helpers/corpora";

test("token windows are decoded token slices and neighbours share exactly `overlap` tokens", () => {
  const encoder = getEncoding();
  const asciiDocs = sampleDocs(pinnedCorpus("fastify-docs"), 4).filter((d) => /^\p{ASCII}*$/u.test(d.text));
  assert.ok(asciiDocs.length >= 3);
  for (const doc of asciiDocs) {
    // Independent reference: window the full token list directly and decode.
    const all = encodeTokens(doc.text);
    const chunks = splitTokens(doc, { splitter: "tokens", size: 128, overlap: 32 });
    assert.equal(chunks.length, Math.max(1, Math.ceil((all.length - 32) / 96)));
    chunks.forEach((c, i) => {
      const window = all.slice(i * 96, i * 96 + 128);
      assert.equal(c.text, encoder.decode(window), `${doc.id} chunk ${i}`);
      assert.equal(c.text, doc.text.slice(c.start, c.end));
      if (i > 0) {
        const shared = doc.text.slice(c.start, chunks[i - 1].end);
        assert.equal(shared, encoder.decode(all.slice(i * 96, (i - 1) * 96 + 128)), "the 32 shared tokens");
      }
    });
  }
});

test("token windows over emoji and CJK never cut a character and cover the whole text", () => {
  const text = "\u{1F600}\u65E5\u672C\u8A9E\u306E\u30C6\u30AD\u30B9\u30C8 \u{1F1EB}\u{1F1F7}".repeat(30);
  const chunks = splitTokens({ id: "u", text }, { splitter: "tokens", size: 7, overlap: 3 });
  let covered = 0;
  for (const c of chunks) {
    assert.ok(!c.text.includes("\uFFFD"));
    assert.equal(c.text, text.slice(c.start, c.end));
    assert.ok(c.start <= covered);
    covered = Math.max(covered, c.end);
    assert.ok(!/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(c.text), "no lone surrogate at an edge");
  }
  assert.equal(covered, text.length);
});

test("another encoding can be chosen", () => {
  const doc = { id: "d", text: "The quick brown fox jumps over the lazy dog. ".repeat(20) };
  const a = splitTokens(doc, { splitter: "tokens", size: 50, overlap: 10 });
  const b = splitTokens(doc, { splitter: "tokens", size: 50, overlap: 10, encoding: "gpt2" });
  assert.ok(a.length > 0 && b.length > 0);
  assert.equal(b[0].text, getEncoding("gpt2").decode(getEncoding("gpt2").encode(doc.text).slice(0, 50)));
});

test("a document split again at another overlap gives the windows a fresh encoding gives, and an edited one is re-encoded", () => {
  const encoder = getEncoding();
  const doc = { id: "d", text: "Seams cut sentences in half. ".repeat(40) };
  const first = splitTokens(doc, { splitter: "tokens", size: 50, overlap: 0 });
  const second = splitTokens(doc, { splitter: "tokens", size: 50, overlap: 20 });
  const fresh = splitTokens({ ...doc }, { splitter: "tokens", size: 50, overlap: 20 });
  assert.deepEqual(second, fresh);
  assert.equal(first.length, Math.ceil(encodeTokens(doc.text).length / 50));
  doc.text = "Another text entirely, much shorter.";
  const edited = splitTokens(doc, { splitter: "tokens", size: 50, overlap: 20 });
  assert.equal(edited.length, 1);
  assert.equal(edited[0].text, encoder.decode(encodeTokens(doc.text)));
});
