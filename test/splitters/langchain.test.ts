import { after, test } from "node:test";
import assert from "node:assert/strict";
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import { locateChunks, splitLangchainAsync, splitLangchainMany } from "../../src/splitters/langchain";
import { splitDoc } from "../../src/splitters/registry";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { countTokens } from "../../src/text/tokens";
import { pinnedCorpus } from "../helpers/corpora";
import { paragraph599 } from "../helpers/prose";

after(() => stopLibraryBridge());

test("LangChain gives three 599-character paragraphs at 1000/200 as three chunks sharing nothing", () => {
  const text = [paragraph599("A"), paragraph599("B"), paragraph599("C")].join("\n\n");
  const chunks = splitDoc({ id: "p", text }, { splitter: "langchain", size: 1000, overlap: 200 });
  assert.deepEqual(
    chunks.map((c) => [c.start, c.end, c.text[0]]),
    [
      [0, 599, "A"],
      [601, 1200, "B"],
      [1202, 1801, "C"],
    ],
  );
});

test("the synchronous worker bridge returns what LangChain's own async API returns", async () => {
  const doc = pinnedCorpus("fastify-docs").find((d) => d.id.endsWith("Guides/Getting-Started.md"))!;
  const splitter = new RecursiveCharacterTextSplitter({ chunkSize: 500, chunkOverlap: 100 });
  const direct = await splitter.splitText(doc.text);
  const bridged = splitDoc(doc, { splitter: "langchain", size: 500, overlap: 100 });
  assert.deepEqual(
    bridged.map((c) => c.text),
    direct,
  );
  assert.deepEqual(await splitLangchainAsync(doc, { splitter: "langchain", size: 500, overlap: 100 }), bridged);
});

test("a corpus split in several round trips to the worker gives the chunks of one round trip, in document order", async () => {
  const docs = pinnedCorpus("fastify-docs");
  const config = { splitter: "langchain", size: 500, overlap: 100 };
  const whole = splitLangchainMany(docs, config, undefined, Number.POSITIVE_INFINITY);
  const batched = splitLangchainMany(docs, config, undefined, 20_000);
  assert.ok(
    docs.some((d) => d.text.length > 20_000),
    "a document larger than a batch goes alone",
  );
  assert.equal(batched.length, docs.length);
  assert.deepEqual(batched, whole);
  const splitter = new RecursiveCharacterTextSplitter({ chunkSize: 500, chunkOverlap: 100 });
  for (const i of [0, Math.floor(docs.length / 2), docs.length - 1])
    assert.deepEqual(
      batched[i].map((c) => c.text),
      await splitter.splitText(docs[i].text),
    );
  assert.deepEqual(splitLangchainMany([], config, undefined, 20_000), []);
});

test("every LangChain chunk span holds exactly the chunk's text", () => {
  for (const doc of pinnedCorpus("fastify-docs")) {
    for (const c of splitDoc(doc, { splitter: "langchain", size: 300, overlap: 60 })) {
      assert.equal(doc.text.slice(c.start, c.end), c.text);
    }
  }
});

test("token units give LangChain the same token length function as seamlab", () => {
  const doc = pinnedCorpus("fastify-docs").find((d) => d.id.endsWith("Reference/Routes.md"))!;
  const chunks = splitDoc(doc, { splitter: "langchain", size: 100, overlap: 20, unit: "tokens" });
  assert.ok(chunks.length > 1);
  for (const c of chunks) assert.ok(countTokens(c.text) <= 100, `${countTokens(c.text)} tokens`);
});

test("LangChain JS leaves separators out of its merge total when keepSeparator is false", () => {
  // JS mergeSplits: total 6 (2+2+2) after "aa bb cc"; pop "aa" -> 4, not > 4, and 4 + 2 + 2 separators fits in 8:
  // the next chunk keeps "bb" ("bb cc dd"), where Python, counting separators, keeps only "cc dd".
  const chunks = splitDoc(
    { id: "k", text: "aa bb cc dd" },
    { splitter: "langchain", size: 8, overlap: 4, separators: [" "], extra: { keepSeparator: false } },
  );
  assert.deepEqual(
    chunks.map((c) => [c.start, c.end, c.text]),
    [
      [0, 8, "aa bb cc"],
      [3, 11, "bb cc dd"],
    ],
  );
});

test("LangChain JS splits a run of three newlines at every occurrence of the separator", () => {
  // JS keeps separators with text.split(/(?=\n\n)/): "aa", "\n\nbbb", "\n", "\n\ncc" (Python has no lone "\n").
  const chunks = splitDoc({ id: "n", text: "aa\n\nbbb\n\n\ncc" }, { splitter: "langchain", size: 10, overlap: 5 });
  assert.deepEqual(
    chunks.map((c) => [c.start, c.end, c.text]),
    [
      [0, 7, "aa\n\nbbb"],
      [10, 12, "cc"],
    ],
  );
});

test("a repeated line is placed after the previous chunk, not inside it", () => {
  // Texts as LangChain returns them for a table; "}" also occurs inside the first chunk.
  const doc = { id: "r", text: "a {\n}\n}" };
  assert.deepEqual(
    locateChunks(doc, ["a {\n}", "}"]).map((c) => [c.start, c.end]),
    [
      [0, 5],
      [6, 7],
    ],
  );
});

test("a chunk that is not in the source throws instead of guessing a span", () => {
  assert.throws(() => locateChunks({ id: "x", text: "alpha beta" }, ["alpha", "gamma"]), /chunk 1 of "x"/);
});

test("regex separators are rejected: LangChain JS escapes them", () => {
  assert.throws(
    () =>
      splitDoc(
        { id: "d", text: "a. b" },
        { splitter: "langchain", size: 10, overlap: 0, separators: ["\\. "], separatorsAreRegex: true },
      ),
    /regex/,
  );
});
