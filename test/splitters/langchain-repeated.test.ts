// Span recovery for LangChain's chunk texts on repeated text. LangChain returns texts only; the spans come from an
// ordered search whose window is derived from LangChain's merge (see `locateChunks`): a chunk starts at or after
// `previous.end - chunkOverlap` (and after `previous.start`), and at or before the first non-blank character from
// `previous.end` on. The window is checked here against the real library's output, and then used.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import type { Chunk, Doc } from "../../src/core/types";
import { splitLangchainAsync, splitLangchainMany } from "../../src/splitters/langchain";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { pinnedCorpus } from "../helpers/corpora";

after(() => stopLibraryBridge());

const sentence = "The whale surfaced near the ship and the crew watched it breathe in the grey light";

/** `count` paragraphs of `length` chars each, the same text every time or numbered (unique) with the same length. */
function paragraphs(count: number, length: number, numbered: boolean): string {
  const body = sentence.repeat(Math.ceil(length / sentence.length)).slice(0, length - 4);
  return Array.from({ length: count }, (_, i) => body + (numbered ? String(i).padStart(3, "0") : "xyz") + ".").join(
    "\n\n",
  );
}

const configs = [
  { size: 1000, overlap: 200, paragraph: 103 },
  { size: 1000, overlap: 200, paragraph: 260 },
  { size: 500, overlap: 100, paragraph: 40 },
  { size: 300, overlap: 150, paragraph: 70 },
];

const spans = (chunks: Chunk[]) => chunks.map((c) => [c.start, c.end]);
const overlapMean = (chunks: Chunk[]) =>
  chunks.slice(1).reduce((s, c, i) => s + Math.max(0, chunks[i].end - c.start), 0) / Math.max(1, chunks.length - 1);

test("one paragraph repeated 40 times gets the spans LangChain cut: those of the same text with unique paragraphs", async () => {
  for (const { size, overlap, paragraph } of configs) {
    const config = { splitter: "langchain", size, overlap };
    const repeated: Doc = { id: "repeated", text: paragraphs(40, paragraph, false) };
    const unique: Doc = { id: "unique", text: paragraphs(40, paragraph, true) };
    // LangChain's cuts depend only on lengths, so both texts are cut at the same offsets; unique text has one span.
    const truth = await splitLangchainAsync(unique, config);
    const found = await splitLangchainAsync(repeated, config);
    const what = `${size}/${overlap}, ${paragraph}-char paragraphs`;
    assert.deepEqual(spans(found), spans(truth), what);
    assert.equal(overlapMean(found), overlapMean(truth), what);
    for (const chunk of found) assert.equal(chunk.text, repeated.text.slice(chunk.start, chunk.end));
    // the worker bridge (what `seams --splitter langchain` runs) places them the same way
    assert.deepEqual(spans(splitLangchainMany([repeated], config)[0]), spans(truth), `${what}, bridge`);
  }
});

test("every LangChain chunk starts within [previous end - overlap, first non-blank from previous end] on real docs", async () => {
  // Only pairs of chunks whose texts occur once in the document: their spans are certain without any search rule.
  const docs = pinnedCorpus("fastify-docs").slice(0, 40);
  let checked = 0;
  for (const [size, overlap] of [
    [1000, 200],
    [400, 100],
    [200, 80],
  ]) {
    const splitter = new RecursiveCharacterTextSplitter({ chunkSize: size, chunkOverlap: overlap });
    for (const doc of docs) {
      const texts = await splitter.splitText(doc.text);
      const unique = (text: string) => doc.text.indexOf(text) === doc.text.lastIndexOf(text);
      for (let i = 1; i < texts.length; i++) {
        if (!unique(texts[i - 1]) || !unique(texts[i])) continue;
        const prevStart = doc.text.indexOf(texts[i - 1]);
        const prevEnd = prevStart + texts[i - 1].length;
        const start = doc.text.indexOf(texts[i]);
        let firstNonBlank = prevEnd;
        while (firstNonBlank < doc.text.length && /\s/.test(doc.text[firstNonBlank])) firstNonBlank++;
        const where = `${doc.id} at ${size}/${overlap}, chunk ${i}: start ${start}, previous [${prevStart}, ${prevEnd})`;
        assert.ok(start > prevStart, where);
        assert.ok(start >= prevEnd - overlap, where);
        assert.ok(start <= firstNonBlank, where);
        checked++;
      }
    }
  }
  assert.ok(checked > 500, `checked ${checked} seams`);
});
