// The port must reproduce the real LangChain package chunk for chunk (text and span) on the real corpora under
// SEAMLAB_DATA_DIR (opentelemetry-docs, tts-handbook). `npm run test:corpora` runs this suite.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { splitLangchainMany } from "../../src/splitters/langchain";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { realCorpus } from "../helpers/corpora";
import { firstDifference } from "../helpers/langchain-difference";

after(() => stopLibraryBridge());

for (const corpus of ["opentelemetry-docs", "tts-handbook"] as const) {
  test(`recursive equals langchain on every file of ${corpus} at 1000/200 (text and span)`, () => {
    assert.equal(firstDifference(realCorpus(corpus), { splitter: "", size: 1000, overlap: 200 }, true), null);
  });

  test(`with langchainJsCompat, recursive equals langchain on ${corpus} at 500/100 and 300/0 (text and span)`, () => {
    // Python (our default) differs from LangChain JS on runs of 3+ newlines at these sizes; see recursive-core.
    for (const [size, overlap] of [
      [500, 100],
      [300, 0],
    ]) {
      const config = { splitter: "", size, overlap, extra: { langchainJsCompat: true } };
      assert.equal(firstDifference(realCorpus(corpus), config, true), null, `${size}/${overlap}`);
    }
  });

  test(`with langchainJsCompat, recursive chunk texts equal langchain on ${corpus} at 100/20`, () => {
    // Spans are compared above only: below ~200 chars, chunks like "|" or a run of dashes repeat within one
    // chunk length and LangChain's text-only output no longer pins down where they came from.
    const config = { splitter: "", size: 100, overlap: 20, extra: { langchainJsCompat: true } };
    assert.equal(firstDifference(realCorpus(corpus), config, false), null);
  });
}

test("more than 40% of LangChain's seams share nothing on opentelemetry-docs at 1000/200", () => {
  const docs = realCorpus("opentelemetry-docs");
  let seams = 0;
  let zero = 0;
  for (const chunks of splitLangchainMany(docs, { splitter: "langchain", size: 1000, overlap: 200 })) {
    for (let i = 1; i < chunks.length; i++) {
      seams++;
      if (chunks[i - 1].end <= chunks[i].start) zero++;
    }
  }
  assert.ok(seams > 6000);
  assert.ok(zero / seams > 0.4, `${zero}/${seams}`);
});

test("recursive in token units equals langchain with the same token length function", () => {
  const docs = realCorpus("tts-handbook").slice(0, 30);
  const config = { splitter: "", size: 200, overlap: 40, unit: "tokens" as const };
  assert.equal(firstDifference(docs, config, true), null);
});
