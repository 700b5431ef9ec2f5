import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCorpus } from "../../src/corpus/load";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { expandGrid, type GridSpec } from "../../src/experiment/grid";
import { runGrid } from "../../src/experiment/run";
import { studySweepInputs, tokenSampleNote } from "../../src/study/sweep";
import { fastifyGuides } from "../helpers/corpora";

// Each section of a guide as a document: enough documents for the automatic sample to be smaller than the corpus.
const sections = loadCorpus(fastifyGuides).docs.flatMap((d) =>
  d.text.split(/\n(?=#+ )/).map((text, i) => ({ id: `${d.id}/${i}`, text })),
);
const set = buildHeaderQueries(sections);
const docs = set.docs;
const spec: GridSpec = { splitters: ["recursive"], sizes: [400], overlaps: [0, 100] };
const configs = expandGrid(spec);

test("a study sweep measures every document of a corpus up to the whole-corpus size, as before sampling", () => {
  const inputs = studySweepInputs({ docs, queries: set.queries }, configs);
  assert.equal(inputs.sample, undefined);
  assert.equal(inputs.docs, docs);
  assert.equal(inputs.queries, set.queries);
});

test("over the whole-corpus size a study sweep samples damage and tokens, keeping every number of retrieval", async () => {
  const sampled = studySweepInputs({ docs, queries: set.queries }, configs, 1000, { kind: "auto", halfWidth: 0.2 });
  assert.ok(sampled.sample, "a corpus over 1,000 characters is sampled when the threshold is 1,000");
  assert.ok(sampled.sample.indexes.length < docs.length);
  assert.match(
    sampled.sample.description,
    /a seeded sample of \d+ of [\d,]+ documents.*auto: sized for a 95% CI of ±20\.0 points/,
  );
  const whole = await runGrid({ docs, queries: set.queries }, spec, { workers: 0, cacheDir: null });
  assert.ok(
    whole.rows.every((row) => row.hits.includes("1")),
    "queries find their sections",
  );
  const rows = (await runGrid(sampled, spec, { workers: 0, cacheDir: null })).rows;
  rows.forEach((row, i) => {
    assert.deepEqual(row.seams, whole.rows[i].seams);
    assert.deepEqual(row.retrieval, whole.rows[i].retrieval);
    assert.equal(row.hits, whole.rows[i].hits);
    assert.ok(row.sample, "each row says its damage and tokens come from a sample");
    const ci = row.sample.tokensEmbeddedCI;
    assert.ok(ci.low <= row.tokensEmbedded && row.tokensEmbedded <= ci.high);
  });
  assert.match(tokenSampleNote(rows), /^Tokens embedded are estimated from a seeded sample of \d+ of/);
  assert.equal(tokenSampleNote(whole.rows), "");
});
