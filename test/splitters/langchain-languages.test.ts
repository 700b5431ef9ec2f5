// The LangChain language rows run the real library: their chunk texts equal MarkdownTextSplitter's and
// RecursiveCharacterTextSplitter.fromLanguage's own output, and their spans point at those texts.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MarkdownTextSplitter, RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { splitCorpus, splitDocAsync, splitterNames, validateSplitterConfig } from "../../src/splitters/registry";

after(() => stopLibraryBridge());

const fixtures = fileURLToPath(new URL("../fixtures/structure/", import.meta.url));
const markdown = { id: "ref.md", text: readFileSync(fixtures + "reference.md", "utf8").repeat(4) };
const js = { id: "code.js", text: readFileSync(fixtures + "code.js", "utf8").repeat(3) };

test("langchain-markdown and langchain-js are registered next to langchain", () => {
  for (const name of ["langchain-markdown", "langchain-js", "langchain-python"])
    assert.ok(splitterNames.includes(name));
});

test("langchain-markdown gives MarkdownTextSplitter's chunks, with exact spans", async () => {
  const expected = await new MarkdownTextSplitter({ chunkSize: 120, chunkOverlap: 30 }).splitText(markdown.text);
  for (const chunks of [
    splitCorpus([markdown], { splitter: "langchain-markdown", size: 120, overlap: 30 }),
    await splitDocAsync(markdown, { splitter: "langchain-markdown", size: 120, overlap: 30 }),
  ]) {
    assert.deepEqual(
      chunks.map((c) => c.text),
      expected,
    );
    for (const c of chunks) assert.equal(markdown.text.slice(c.start, c.end), c.text);
  }
});

test("langchain-js gives fromLanguage('js') chunks, which differ from the default separators' chunks", async () => {
  const fromLanguage = await RecursiveCharacterTextSplitter.fromLanguage("js", {
    chunkSize: 100,
    chunkOverlap: 0,
  }).splitText(js.text);
  const chunks = splitCorpus([js], { splitter: "langchain-js", size: 100, overlap: 0 });
  assert.deepEqual(
    chunks.map((c) => c.text),
    fromLanguage,
  );
  const plain = splitCorpus([js], { splitter: "langchain", size: 100, overlap: 0 });
  assert.notDeepEqual(
    plain.map((c) => c.text),
    fromLanguage,
  );
});

test("a language row refuses custom separators, naming the splitter", () => {
  assert.throws(
    () => validateSplitterConfig({ splitter: "langchain-markdown", size: 100, overlap: 0, separators: ["\n"] }),
    /langchain-markdown uses LangChain's markdown separators/,
  );
});
