import assert from "node:assert/strict";
import { test } from "node:test";
import { characterBudgetSample } from "../../src/corpus/sample";
import { splitCorpus } from "../../src/splitters/registry";
import { wilsonInterval } from "../../src/stats/proportion";
import { loadProse } from "../../src/study/inputs";
import { audienceOf, libraryDisplayRows, libraryMeaning, libraryTable } from "../../src/study/libraries";

test("a library table on a character-budget sample measures only the sample, with a cluster CI that covers the full corpus", async () => {
  const { docs } = loadProse("moby-dick");
  const sample = characterBudgetSample(docs, 300_000);
  assert.ok(sample.docs.length < docs.length);
  const setting = {
    unit: "chars" as const,
    size: 1000,
    overlap: 200,
    splitters: ["langchain", "mastra-sentence"],
    cache: null,
  };
  const [full, sampled] = [await libraryTable(docs, setting), await libraryTable(docs, { ...setting, sample })];
  for (let i = 0; i < full.length; i++) {
    const name = full[i].splitter;
    const config = { splitter: name, size: 1000, overlap: 200 };
    assert.equal(sampled[i].chunks, splitCorpus(sample.docs, config).length, `${name}: chunks of the sample only`);
    const wilson = wilsonInterval(sampled[i].zeroOverlapSeams, sampled[i].seams);
    const ci = sampled[i].zeroOverlapCI;
    assert.ok(ci.low <= wilson.low && ci.high >= wilson.high, `${name}: never narrower than Wilson`);
    const value = full[i].zeroOverlapPct / 100;
    assert.ok(ci.low <= value && value <= ci.high, `${name}: full ${value} in [${ci.low}, ${ci.high}]`);
  }
});

test("a splitter that leaves every document whole has no seams to measure, and the table says so instead of 0%", () => {
  const row = {
    splitter: "llamaindex-markdown",
    library: "LlamaIndex TS",
    unit: "chars",
    size: 1000,
    overlap: 200,
    chunks: 138,
    seams: 0,
    meanOverlap: 0,
    realisedRatio: 0,
    zeroOverlapSeams: 0,
    zeroOverlapPct: 0,
    zeroOverlapCI: { low: 0, high: 1 },
    lostChars: 0,
    duplicatedChars: 0,
    indexRatio: 1,
    oversizeChunks: 136,
    maxChunkLength: 20000,
    pairsKeptPct: 100,
    exactSpans: 138,
    whitespaceSpans: 0,
    rewrittenSpans: 0,
    firstChange: null,
    hitRate: null,
    hitRateCI: null,
  } as const;
  const meaning = libraryMeaning(row);
  assert.match(meaning, /no seams to measure \(every document is one chunk\)/);
  assert.doesNotMatch(meaning, /% of seams share nothing/);
  const [display] = libraryDisplayRows([{ ...row, meaning }]);
  assert.equal(display["zero-overlap seams [95% CI]"], "no seams");
  const [measured] = libraryDisplayRows([
    { ...row, seams: 100, zeroOverlapPct: 68.2, zeroOverlapCI: { low: 0.642, high: 0.72 }, meaning },
  ]);
  assert.equal(measured["zero-overlap seams [95% CI]"], "68.2% [64.2–72.0]");
});

test("each row names who it speaks to: LangChain JS's language presets are not LangChain Python", () => {
  assert.equal(audienceOf("langchain"), "LangChain JS users");
  assert.equal(audienceOf("langchain-character"), "LangChain JS users");
  assert.equal(audienceOf("llamaindex-sentence"), "LlamaIndex TS users");
  assert.equal(audienceOf("recursive"), "seamlab users");
  assert.equal(audienceOf("langchain-python"), `Users of LangChain JS's Python-code preset (fromLanguage("python"))`);
  assert.equal(audienceOf("langchain-js"), `Users of LangChain JS's JavaScript-code preset (fromLanguage("js"))`);
  assert.equal(audienceOf("langchain-markdown"), "Users of LangChain JS's MarkdownTextSplitter");
  const row = { splitter: "langchain-python", unit: "chars", size: 1000, overlap: 200, meanOverlap: 50 } as const;
  const meaning = libraryMeaning({ ...row, realisedRatio: 0.25, seams: 10, zeroOverlapPct: 60 } as never);
  assert.match(meaning, /^Users of LangChain JS's Python-code preset/);
  assert.doesNotMatch(meaning, /^LangChain JS users/);
});
