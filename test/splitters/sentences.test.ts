// Hand-worked examples of this splitter's exact spans are in test/fixtures/splitters/sentences.txt (fixtures.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { splitLangchainMany } from "../../src/splitters/langchain";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { splitSentences } from "../../src/splitters/recursive";
import type { Chunk } from "../../src/core/types";
import { after } from "node:test";
import { pinnedCorpus } from "../helpers/corpora";

after(() => stopLibraryBridge());

function zeroShare(perDoc: Chunk[][]): number {
  let seams = 0;
  let zero = 0;
  for (const chunks of perDoc) {
    for (let i = 1; i < chunks.length; i++) {
      seams++;
      if (chunks[i - 1].end <= chunks[i].start) zero++;
    }
  }
  return zero / seams;
}

test("sentence splitting leaves at most a tenth as many zero-overlap seams as LangChain on fastify-docs", () => {
  // Measured on the pinned fastify docs at 1000/200: LangChain 31%, sentences 0.9% (opentelemetry-docs, in
  // test/corpora: over 40% against under 10%).
  const docs = pinnedCorpus("fastify-docs");
  const config = { splitter: "", size: 1000, overlap: 200 };
  const langchain = zeroShare(splitLangchainMany(docs, config));
  const sentences = zeroShare(docs.map((d) => splitSentences(d, config)));
  assert.ok(langchain > 0.2, `langchain ${langchain}`);
  assert.ok(sentences < langchain / 10, `sentences ${sentences}, langchain ${langchain}`);
});
