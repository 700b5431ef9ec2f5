import assert from "node:assert/strict";
import { test } from "node:test";
import { characterBudgetSample } from "../../src/corpus/sample";
import { splitCorpus } from "../../src/splitters/registry";
import { wilsonInterval } from "../../src/stats/proportion";
import { loadProse } from "../../src/study/inputs";
import { libraryTable } from "../../src/study/libraries";

test("a library table on a character-budget sample measures only the sample, with a cluster CI that covers the full corpus", async () => {
  const { docs } = loadProse("moby-dick");
  const sample = characterBudgetSample(docs, 300_000);
  assert.ok(sample.docs.length < docs.length);
  const setting = { unit: "chars" as const, size: 1000, overlap: 200, splitters: ["langchain", "mastra-sentence"] };
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
