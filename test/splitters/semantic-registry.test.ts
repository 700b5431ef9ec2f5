import { test } from "node:test";
import assert from "node:assert/strict";
import { splitCorpus, splitCorpusAsync, splitterNames, validateSplitterConfig } from "../../src/splitters/registry";
import type { Doc } from "../../src/core/types";

const docs: Doc[] = [
  {
    id: "a.md",
    text:
      "Whales swim in the deep sea. Whales eat krill in the sea.\n\n" +
      "Compilers parse source code. Compilers emit machine code for the target.\n\n" +
      "Whales sing long songs in the sea.",
  },
];

test("semantic splitter is in the registry and splits a corpus asynchronously with exact spans", async () => {
  assert.ok(splitterNames.includes("semantic"));
  const chunks = await splitCorpusAsync(docs, { splitter: "semantic", size: 200, overlap: 0 });
  assert.ok(chunks.length >= 2, `expected the topic change to cut, got ${chunks.length} chunk(s)`);
  for (const c of chunks) assert.equal(c.text, docs[0].text.slice(c.start, c.end).trim());
  // Once prepared, the synchronous path serves the same chunks.
  assert.deepEqual(splitCorpus(docs, { splitter: "semantic", size: 200, overlap: 0 }), chunks);
});

test("semantic splitter refuses a character overlap and names the parameter", () => {
  assert.throws(() => validateSplitterConfig({ splitter: "semantic", size: 200, overlap: 20 }), /overlap/);
});

test("semantic splitter used synchronously without preparing says how to fix it", () => {
  const fresh: Doc[] = [{ id: "b.md", text: "One sentence here. Another one there." }];
  assert.throws(() => splitCorpus(fresh, { splitter: "semantic", size: 200, overlap: 0 }), /prepareSemanticSplit/);
});
