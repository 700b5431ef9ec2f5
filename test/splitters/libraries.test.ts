import { after, test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk, Doc } from "../../src/core/types";
import { SeamlabError } from "../../src/core/errors";
import { loadCorpus } from "../../src/corpus/load";
import { measureSpanFidelity, formatTextChange } from "../../src/measure/fidelity";
import { librarySplitters } from "../../src/splitters/libraries";
import { librariesPreset } from "../../src/study/libraries";
import { runLibrarySync, stopLibraryBridge } from "../../src/splitters/library-bridge";
import { spanMatch } from "../../src/splitters/locate";
import { splitDoc, splitterNames, validateSplitterConfig } from "../../src/splitters/registry";

after(() => stopLibraryBridge());

const spans = (chunks: Chunk[]) => chunks.map((c) => [c.start, c.end, c.text]);
const split = (splitter: string, text: string, size: number, overlap: number, unit: "chars" | "tokens" = "chars") =>
  splitDoc({ id: "golden", text }, { splitter, size, overlap, unit });

const sentences = "Alpha beta. Gamma delta. Epsilon zeta.";
// " one"[0,4) " two"[4,8) " three"[8,14) " four"[14,19) " five"[19,24) " six"[24,28) " seven"[28,34)
// " eight"[34,40) " nine"[40,45) " ten"[45,49): one cl100k token each.
const tenTokens = " one two three four five six seven eight nine ten";

test("every library splitter is a registry entry whose description says what its size and overlap count", () => {
  for (const spec of librarySplitters) {
    assert.ok(splitterNames.includes(spec.name), spec.name);
  }
  assert.deepEqual(librariesPreset("tokens").includes("langchain-token"), true);
  assert.deepEqual(librariesPreset("chars").includes("langchain-token"), false);
  assert.throws(
    () => validateSplitterConfig({ splitter: "mastra-token", size: 400, overlap: 80, unit: "chars" }),
    (e: unknown) =>
      e instanceof SeamlabError &&
      /mastra-token always counts tokens, but --unit is chars; pass --unit tokens/.test(e.message),
  );
});

test("LlamaIndex SentenceSplitter carries whole sentences only: 12-char sentences never fit a 10-char overlap", () => {
  // Sentences "Alpha beta. " (12), "Gamma delta. " (13), "Epsilon zeta." (13): at 20/10 no two fit one chunk and
  // no sentence fits the overlap; at 26/13 two fit, and the 13-char middle sentence is carried whole.
  assert.deepEqual(spans(split("llamaindex-sentence", sentences, 20, 10)), [
    [0, 11, "Alpha beta."],
    [12, 24, "Gamma delta."],
    [25, 38, "Epsilon zeta."],
  ]);
  assert.deepEqual(spans(split("llamaindex-sentence", sentences, 26, 13)), [
    [0, 24, "Alpha beta. Gamma delta."],
    [12, 38, "Gamma delta. Epsilon zeta."],
  ]);
});

test("LlamaIndex TokenTextSplitter never overlaps: it empties the chunk before taking the overlap from it", () => {
  // Splits "aa ", "bb ", "cc ", ... (3 chars each); 3 fit a size of 8 once the last space is trimmed. An overlap
  // of 3 should carry "cc", but _merge resets currentChunk to [] before it shifts the overlap out of it.
  assert.deepEqual(spans(split("llamaindex-token", "aa bb cc dd ee ff", 8, 3)), [
    [0, 8, "aa bb cc"],
    [9, 14, "dd ee"],
    [15, 17, "ff"],
  ]);
});

test("LlamaIndex MarkdownNodeParser embeds header metadata; the span maps the section text without its # marks", () => {
  const chunks = split("llamaindex-markdown", "# A\n\nx\n\n## B\n\ny", 100, 0);
  assert.deepEqual(spans(chunks), [
    [2, 6, "Header_1: A\n\nA\n\nx"],
    [11, 15, "Header_1: A\nHeader_2: B\n\nB\n\ny"],
  ]);
});

test("Mastra recursive merges paragraphs like LangChain and carries the whole last paragraph that fits", () => {
  // "aaa" + "\n\n" + "bbb" is 8 = size; adding "ccc" overflows, and "bbb" (3) fits the overlap of 3.
  assert.deepEqual(spans(split("mastra-recursive", "aaa\n\nbbb\n\nccc", 8, 3)), [
    [0, 8, "aaa\n\nbbb"],
    [5, 13, "bbb\n\nccc"],
  ]);
});

test("Mastra sentence collapses a double space: the span covers the source, the text is what Mastra embeds", () => {
  const doc = { id: "golden", text: "Alpha beta.  Gamma delta. Epsilon zeta." };
  const chunks = splitDoc(doc, { splitter: "mastra-sentence", size: 26, overlap: 13 });
  assert.deepEqual(chunks[0], { doc: "golden", start: 0, end: 25, text: "Alpha beta. Gamma delta." });
  assert.equal(spanMatch(doc, chunks[0]), "whitespace");
});

test("Mastra and LangChain token windows step size - overlap tokens; Mastra strips the leading space", () => {
  assert.deepEqual(spans(split("langchain-token", tenTokens, 4, 1, "tokens")), [
    [0, 19, " one two three four"],
    [14, 34, " four five six seven"],
    [28, 49, " seven eight nine ten"],
  ]);
  assert.deepEqual(spans(split("mastra-token", tenTokens, 4, 1, "tokens")), [
    [1, 19, "one two three four"],
    [15, 34, "four five six seven"],
    [29, 49, "seven eight nine ten"],
  ]);
});

test("chonkie's token window keeps stepping after reaching the end (a last chunk inside its predecessor)", () => {
  assert.deepEqual(spans(split("chonkie-token", "abcdefghijklmnopqrst", 10, 4)), [
    [0, 10, "abcdefghij"],
    [6, 16, "ghijklmnop"],
    [12, 20, "mnopqrst"],
    [18, 20, "st"],
  ]);
  assert.equal(split("chonkie-token", tenTokens, 4, 1, "tokens").at(-1)?.text, " ten");
});

test("chonkie's RecursiveChunker has no overlap: the configured overlap is ignored", () => {
  assert.deepEqual(spans(split("chonkie-recursive", sentences, 16, 8)), [
    [0, 11, "Alpha beta."],
    [11, 24, " Gamma delta."],
    [24, 38, " Epsilon zeta."],
  ]);
  // SentenceChunker does carry whole sentences: "Gamma delta. " (13) fits an overlap of 13.
  assert.deepEqual(spans(split("chonkie-sentence", sentences, 26, 13)), [
    [0, 25, "Alpha beta. Gamma delta. "],
    [12, 38, "Gamma delta. Epsilon zeta."],
  ]);
});

test("LangChain's CharacterTextSplitter splits on blank lines only and carries whole paragraphs", () => {
  assert.deepEqual(spans(split("langchain-character", "aaa\n\nbbb\n\nccc", 8, 3)), [
    [0, 8, "aaa\n\nbbb"],
    [5, 13, "bbb\n\nccc"],
  ]);
});

test("a library that hangs is stopped by the per-document timeout, with an error naming library and document", () => {
  const fixture = new URL("../fixtures/libraries/misbehaving-adapters.mjs", import.meta.url).href;
  const options = { size: 10, overlap: 0, unit: "chars" as const, encoding: "cl100k_base" };
  const started = Date.now();
  assert.throws(
    () => runLibrarySync("hang", "chapter-7.md", "some text", options, 300, fixture),
    (e: unknown) =>
      e instanceof SeamlabError && /^hang did not finish document "chapter-7\.md" .* within 300 ms/.test(e.message),
  );
  assert.ok(Date.now() - started < 5000);
  assert.throws(
    () => runLibrarySync("throws", "notes.md", "x", options, 5000, fixture),
    (e: unknown) =>
      e instanceof SeamlabError && /throws failed on document "notes\.md".*boom from the fixture/.test(e.message),
  );
  // The worker was replaced after the timeout and still answers.
  assert.deepEqual(runLibrarySync("echo", "a", "still here", options, 5000, fixture).texts, ["still here"]);
});

test("a real library stuck on a 50 KB word is stopped and named; a document of only newlines gives valid spans", () => {
  const word: Doc = { id: "one-long-word", text: "x".repeat(50_000) };
  const saved = process.env.SEAMLAB_LIBRARY_TIMEOUT_MS;
  process.env.SEAMLAB_LIBRARY_TIMEOUT_MS = "1500";
  try {
    // js-tiktoken's byte-pair merge is quadratic on one long word: LangChain's token splitter takes > 20 s here.
    assert.throws(
      () => splitDoc(word, { splitter: "langchain-token", size: 400, overlap: 80, unit: "tokens" }),
      (e: unknown) =>
        e instanceof SeamlabError && /^langchain-token did not finish document "one-long-word"/.test(e.message),
    );
  } finally {
    if (saved === undefined) delete process.env.SEAMLAB_LIBRARY_TIMEOUT_MS;
    else process.env.SEAMLAB_LIBRARY_TIMEOUT_MS = saved;
  }
  const newlines: Doc = { id: "blank", text: "\n".repeat(2000) };
  for (const name of ["llamaindex-sentence", "mastra-recursive", "chonkie-recursive", "langchain-character"]) {
    for (const c of splitDoc(newlines, { splitter: name, size: 1000, overlap: 200 })) {
      assert.ok(c.start >= 0 && c.end <= newlines.text.length && c.start <= c.end, name);
    }
  }
});

// Libraries that return source text verbatim on these corpora (the others' changes are reported, not hidden).
const verbatim = ["llamaindex-token", "mastra-character", "chonkie-sentence", "chonkie-token"];

test("on real npm corpora every library span holds its chunk's text, or the change is named precisely", () => {
  const moby = loadCorpus("moby-dick").docs.slice(1, 4);
  const fastify = loadCorpus("fastify-docs").docs.filter((_, i) => i % 8 === 0);
  for (const spec of librarySplitters) {
    const unit = spec.units.includes("chars") ? "chars" : "tokens";
    const [size, overlap] = unit === "chars" ? [1000, 200] : [400, 80];
    // Mastra's token strategy is slow (minutes on a whole novel): the fastify sample is enough for it.
    const docs = spec.name === "mastra-token" ? fastify.slice(0, 2) : [...moby, ...fastify];
    const chunks: Chunk[] = [];
    for (const doc of docs) {
      const got = splitDoc(doc, { splitter: spec.name, size, overlap, unit });
      let prevStart = 0;
      for (const c of got) {
        assert.ok(c.start >= prevStart && c.end <= doc.text.length && c.start <= c.end, `${spec.name} ${doc.id}`);
        prevStart = c.start;
      }
      chunks.push(...got);
    }
    const fidelity = measureSpanFidelity(docs, chunks, 1);
    assert.equal(fidelity.exact + fidelity.whitespace + fidelity.rewritten, chunks.length);
    const first = fidelity.changes[0];
    if (verbatim.includes(spec.name)) {
      assert.equal(fidelity.exact, chunks.length, first ? `${spec.name}: ${formatTextChange(first)}` : spec.name);
    } else if (first) {
      // The report names document, chunk and offset, and the two texts really differ there.
      assert.match(formatTextChange(first), /^.+ chunk \d+ at offset \d+ \((whitespace|rewritten)\): source /);
      assert.notEqual(first.source, first.text);
    }
  }
});
