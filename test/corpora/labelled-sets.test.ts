// Real labelled sets under SEAMLAB_DATA_DIR (`npm run test:corpora`): Chroma's chunking-evaluation questions and
// COVID-QA, loaded with the figures their own documentation (or an independent count) gives.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadLabelledSet } from "../../src/corpus/labelled";
import { requireDataDir } from "../helpers/data-dir";

const data = requireDataDir();

test("Chroma's question set loads with every reference at its stated offsets", () => {
  const dir = join(data, "chroma-chunking-eval/corpora");
  const corpus = readdirSync(dir)
    .sort()
    .map((f) => ({ id: f, text: readFileSync(join(dir, f), "utf8") }));
  const set = loadLabelledSet(join(data, "chroma-chunking-eval/questions_df.csv"), corpus);
  // the shared README: 472 questions, 790 reference spans
  assert.equal(set.queries.length, 472);
  assert.equal(
    set.queries.reduce((s, q) => s + q.gold.length, 0),
    790,
  );
  assert.equal(set.report.offsetsCorrected, 0);
});

test("COVID-QA loads as SQuAD with its off-by-some answer offsets corrected and counted", () => {
  const set = loadLabelledSet(join(data, "covid-qa/200423_covidQA.json"));
  assert.equal(set.docs.length, 98);
  assert.equal(set.queries.length, 1380);
  // an independent count (Python slicing of context[answer_start:][:len(text)]) gives 234 mismatches
  assert.equal(set.report.offsetsCorrected, 234);
  for (const q of set.queries.slice(0, 200)) {
    const doc = set.docs.find((d) => d.id === q.gold[0].doc)!;
    assert.ok(doc.text.slice(q.gold[0].start, q.gold[0].end).length > 0);
  }
});
