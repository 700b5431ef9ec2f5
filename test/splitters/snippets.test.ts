import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { SplitterConfig } from "../../src/splitters/config";
import { splitDoc } from "../../src/splitters/registry";
import { splitterSnippets } from "../../src/splitters/snippets";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { pinnedCorpus, projectRoot } from "../helpers/corpora";

after(() => stopLibraryBridge());

const context = { origin: "a test", versions: { "@langchain/textsplitters": "1.0.2" } };

/**
 * Runs a generated LangChain JS snippet as a user would paste it: written to a file inside the project (so its
 * `import "@langchain/textsplitters"` resolves as in a user's project) and imported; returns its splitter's chunks.
 */
async function runJsSnippet(code: string, text: string): Promise<string[]> {
  const parent = join(projectRoot, ".seamlab-cache");
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, "snippet-test-"));
  try {
    const file = join(dir, "chosen.langchain.mjs");
    writeFileSync(file, code);
    const mod = (await import(pathToFileURL(file).href)) as { splitter: { splitText(t: string): Promise<string[]> } };
    return await mod.splitter.splitText(text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const guide = () => pinnedCorpus("fastify-docs").find((d) => d.id.endsWith("Guides/Getting-Started.md"))!;
const jsOf = (config: SplitterConfig) => splitterSnippets(config, context).find((s) => s.target === "langchainJs")!;

test("the LangChain JS snippet of a langchain config cuts a real guide exactly as seamlab's langchain splitter", async () => {
  const doc = guide();
  for (const config of [
    { splitter: "langchain", size: 1000, overlap: 150, unit: "chars" },
    { splitter: "langchain", size: 300, overlap: 0, unit: "chars" },
  ] as SplitterConfig[]) {
    const snippet = jsOf(config);
    assert.equal(snippet.equivalent, true);
    const expected = splitDoc(doc, config).map((c) => c.text);
    assert.ok(expected.length > 5, "the guide gives several chunks");
    assert.deepEqual(await runJsSnippet(snippet.code, doc.text), expected);
  }
});

test("the LangChain JS snippet counts tokens and keeps custom separators as the measured config did", async () => {
  const doc = guide();
  const tokens: SplitterConfig = {
    splitter: "langchain",
    size: 200,
    overlap: 40,
    unit: "tokens",
    encoding: "cl100k_base",
  };
  assert.deepEqual(
    await runJsSnippet(jsOf(tokens).code, doc.text),
    splitDoc(doc, tokens).map((c) => c.text),
  );
  const separators: SplitterConfig = {
    splitter: "langchain",
    size: 400,
    overlap: 50,
    unit: "chars",
    separators: ["\n\n", "\n", ".", " ", ""],
  };
  const code = jsOf(separators).code;
  assert.match(code, /separators: \["\\n\\n", "\\n", "\.", " ", ""\]/);
  assert.deepEqual(
    await runJsSnippet(code, doc.text),
    splitDoc(doc, separators).map((c) => c.text),
  );
});

test("a splitter with no LangChain counterpart gets a snippet marked NOT EQUIVALENT in its code", () => {
  for (const snippet of splitterSnippets({ splitter: "structure", size: 800, overlap: 100, unit: "chars" }, context)) {
    assert.equal(snippet.equivalent, false, snippet.target);
    assert.match(snippet.code, /NOT EQUIVALENT: seamlab splitter "structure" at size 800, overlap 100 chars/);
    assert.match(snippet.note, /^not equivalent/);
  }
});

test("snippets name the class for each LangChain family and count characters in LlamaIndex with tokenizer=list", () => {
  const [js, py, llama] = splitterSnippets({ splitter: "langchain-markdown", size: 500, overlap: 50 }, context);
  assert.match(js.code, /new MarkdownTextSplitter\(\{ chunkSize: 500, chunkOverlap: 50 \}\)/);
  assert.match(py.code, /MarkdownTextSplitter\(chunk_size=500, chunk_overlap=50\)/);
  assert.match(llama.code, /LangchainNodeParser\(MarkdownTextSplitter\(chunk_size=500, chunk_overlap=50\)\)/);
  const sentence = splitterSnippets({ splitter: "llamaindex-sentence", size: 1000, overlap: 100 }, context)[2];
  assert.equal(sentence.equivalent, true);
  assert.match(sentence.code, /SentenceSplitter\(chunk_size=1000, chunk_overlap=100, tokenizer=list\)/);
  const window = splitterSnippets({ splitter: "tokens", size: 256, overlap: 32, unit: "tokens" }, context);
  assert.match(
    window[0].code,
    /new TokenTextSplitter\(\{ encodingName: "cl100k_base", chunkSize: 256, chunkOverlap: 32 \}\)/,
  );
  assert.match(window[1].code, /TokenTextSplitter\(encoding_name="cl100k_base", chunk_size=256, chunk_overlap=32\)/);
  const regex = splitterSnippets(
    { splitter: "recursive", size: 500, overlap: 0, separators: ["\\n\\n+", " "], separatorsAreRegex: true },
    context,
  );
  assert.equal(regex[0].equivalent, false, "LangChain JS cannot take regex separators");
  assert.match(regex[1].code, /is_separator_regex=True/);
});
