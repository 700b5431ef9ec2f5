// Document sampling on the real OpenTelemetry docs (705 pages, 5.4 M characters) under SEAMLAB_DATA_DIR: the
// sampled estimates the notebooks print fall inside their own CIs of the full-corpus values.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { characterBudgetSample } from "../../src/corpus/sample";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { seamDamageRows } from "../../src/study/damage";
import { libraryTable } from "../../src/study/libraries";
import { measureSplitters, seamSummaryRows } from "../../src/study/seams";
import { realCorpus } from "../helpers/corpora";

after(() => stopLibraryBridge());
const docs = realCorpus("opentelemetry-docs");

test("notebook 01's auto sample: every zero-overlap CI covers the share measured on all 705 pages", () => {
  const splitters = ["langchain", "sentences", "recursive"];
  const full = seamSummaryRows(measureSplitters(docs, splitters, 1000, 200, { sample: "all" }));
  const auto = seamSummaryRows(measureSplitters(docs, splitters, 1000, 200, { sample: "auto" }));
  assert.equal(full[0].documents, 705);
  auto.forEach((row, i) => {
    const truth = full[i]["zero-overlap seams (%)"] as number;
    const [low, high] = [row["95% CI low (%)"] as number, row["95% CI high (%)"] as number];
    assert.ok(low <= truth && truth <= high, `${row.splitter}: all-pages ${truth}% outside [${low}, ${high}]`);
  });
});

test("notebook 02's auto sample: every kept-pairs CI covers the share measured on all 705 pages", () => {
  const full = seamDamageRows(docs, ["langchain", "window"], 1000, [0, 200], { sample: "all" });
  const auto = seamDamageRows(docs, ["langchain", "window"], 1000, [0, 200], { sample: "auto" });
  assert.ok(auto[0].docs < 705, `auto measured ${auto[0].docs} pages: the sample should save work here`);
  auto.forEach((row, i) => {
    assert.ok(row.low <= full[i].value && full[i].value <= row.high, `${row.label}: ${full[i].value} outside`);
  });
});

test("the library tables' 400,000-character sample: langchain's zero-overlap CI covers the all-pages share", async () => {
  const sample = characterBudgetSample(docs, 400_000);
  assert.ok(sample.docs.length < 705);
  const setting = { unit: "chars" as const, size: 1000, overlap: 200, splitters: ["langchain"], cache: null };
  const [full] = await libraryTable(docs, setting);
  const [sampled] = await libraryTable(docs, { ...setting, sample });
  const truth = full.zeroOverlapPct / 100;
  const ci = sampled.zeroOverlapCI;
  assert.ok(ci.low <= truth && truth <= ci.high, `${truth} outside [${ci.low}, ${ci.high}]`);
});
