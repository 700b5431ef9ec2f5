import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { SentenceWindowNodeParser } from "@llamaindex/core/node-parser";
import { Document } from "@llamaindex/core/schema";
import { neighbourWindows } from "../../src/retrieval/expand";
import type { Chunk } from "../../src/core/types";

// The version as installed (its package.json is not among the package's exports).
const version = (
  JSON.parse(readFileSync(new URL("../../node_modules/@llamaindex/core/package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

test(`neighbour windows are LlamaIndex's SentenceWindowNodeParser windows (@llamaindex/core ${version})`, () => {
  const texts: Record<string, string> = {
    a: "First sentence here. Second one follows! Third is a question? Fourth ends it. Fifth, finally.",
    b: "Another document starts. It has three sentences. The last one is short.",
  };
  for (const windowSize of [1, 2]) {
    const parser = new SentenceWindowNodeParser({ windowSize });
    const docs = Object.entries(texts).map(([id, text]) => new Document({ text, id_: id }));
    const nodes = parser.getNodesFromDocuments(docs);
    // LlamaIndex's nodes as seamlab chunks (its own offsets), in one array across both documents.
    const chunks: Chunk[] = nodes.map((node) => ({
      doc: (node as unknown as { sourceNode: { nodeId: string } }).sourceNode.nodeId,
      start: node.startCharIdx as number,
      end: node.endCharIdx as number,
      text: node.text,
    }));
    assert.ok(chunks.every((c) => texts[c.doc].slice(c.start, c.end) === c.text));
    const windows = neighbourWindows(chunks, windowSize);
    // Sentences here are one space apart, so the window's source text equals LlamaIndex's " "-joined window.
    nodes.forEach((node, i) => {
      const w = windows[i];
      assert.equal(texts[w.doc].slice(w.start, w.end), node.metadata.window, `window ${windowSize} of node ${i}`);
    });
  }
});
