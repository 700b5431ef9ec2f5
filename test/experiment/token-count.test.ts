import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCorpus } from "../../src/corpus/load";
import { splitCorpus } from "../../src/splitters/registry";
import { getEncoding } from "../../src/text/tokens";
import { fastifyGuides } from "../helpers/corpora";

// The independent reference: js-tiktoken itself, special tokens encoded as text.
const countTokens = (text: string) => getEncoding().encode(text, [], []).length;
import { chunkTokenCounter } from "../../src/experiment/token-count";
import { tokenCounter } from "../../src/text/tokens";

const docs = loadCorpus(fastifyGuides).docs;

test("the memoised counter agrees with js-tiktoken on real documents and awkward strings", () => {
  const count = tokenCounter();
  for (const doc of docs) assert.equal(count(doc.text), countTokens(doc.text), doc.id);
  for (const text of [
    "",
    "héllo wörld 🎉🎉 日本語のテキスト",
    "  \n\n  x",
    "<|endoftext|> hi",
    "a".repeat(300),
    "1234567 89",
    "it's   here\t\t\n",
  ]) {
    assert.equal(count(text), countTokens(text), JSON.stringify(text));
  }
});

test("chunk token counts from document pieces equal js-tiktoken on every chunk of several splitters", () => {
  const fast = chunkTokenCounter(docs);
  for (const config of [
    { splitter: "window", size: 300, overlap: 37 },
    { splitter: "window", size: 41, overlap: 5 },
    { splitter: "window-words", size: 500, overlap: 100 },
    { splitter: "langchain", size: 400, overlap: 100 },
    { splitter: "tail", size: 400, overlap: 80 },
  ]) {
    const chunks = splitCorpus(docs, config);
    for (const chunk of chunks)
      assert.equal(fast(chunk), countTokens(chunk.text), `${config.splitter} ${chunk.doc} ${chunk.start}`);
  }
  // A chunk that is not a verbatim slice of its document is counted from its own text.
  assert.equal(
    fast({ doc: docs[0].id, start: 0, end: 5, text: "something else entirely" }),
    countTokens("something else entirely"),
  );
});
