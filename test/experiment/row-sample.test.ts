import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCorpus } from "../../src/corpus/load";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { expandGrid, type GridSpec } from "../../src/experiment/grid";
import { runGrid } from "../../src/experiment/run";
import { docsOfSample, resolveRowSample } from "../../src/experiment/row-sample";
import { measureSeamDamage } from "../../src/measure/pairs";
import { splitCorpus } from "../../src/splitters/registry";
import { chunkTokenCounter } from "../../src/experiment/token-count";
import { fastifyGuides } from "../helpers/corpora";

const set = buildHeaderQueries(loadCorpus(fastifyGuides).docs);
const docs = set.docs;
const spec: GridSpec = { splitters: ["recursive"], sizes: [400], overlaps: [0, 100] };
const configs = expandGrid(spec);

test("a sweep measures every document under all, a small corpus under auto, and a count that covers them", () => {
  assert.equal(resolveRowSample(docs, configs, { kind: "all" }), undefined);
  assert.equal(resolveRowSample(docs, configs, { kind: "auto", halfWidth: 0.01 }), undefined);
  assert.equal(resolveRowSample(docs, configs, { kind: "count", count: docs.length }), undefined);
});

test("a counted sample is seeded, stratified and described; auto on a large corpus samples when it can", () => {
  const sample = resolveRowSample(docs, configs, { kind: "count", count: 8 });
  assert.ok(sample);
  assert.equal(sample.indexes.length, 8);
  assert.equal(sample.strata.length, 8);
  assert.equal(sample.population, docs.length);
  assert.match(sample.description, new RegExp(`a seeded sample of 8 of ${docs.length} documents`));
  assert.deepEqual(resolveRowSample(docs, configs, { kind: "count", count: 8 }), sample, "same seed, same sample");
  assert.notDeepEqual(resolveRowSample(docs, configs, { kind: "count", count: 8 }, 2)?.indexes, sample.indexes);
});

test("auto on a corpus over the whole-corpus threshold grows the sample with the precision asked for", () => {
  // Each section of a guide as a document: enough documents for a pilot of 100 to be a sample.
  const sections = loadCorpus(fastifyGuides).docs.flatMap((d) =>
    d.text.split(/\n(?=#+ )/).map((text, i) => ({ id: `${d.id}/${i}`, text })),
  );
  const sized = (halfWidth: number) =>
    resolveRowSample(sections, configs, { kind: "auto", halfWidth }, 1, 1000)?.indexes.length ?? sections.length;
  assert.equal(resolveRowSample(sections, configs, { kind: "auto", halfWidth: 0.2 }), undefined, "small: whole");
  const loose = resolveRowSample(sections, configs, { kind: "auto", halfWidth: 0.2 }, 1, 1000);
  assert.ok(loose && loose.indexes.length < sections.length, "a ±20-point target does not need every document");
  assert.match(loose.description, /auto: sized for a 95% CI of ±20\.0 points/);
  assert.ok(sized(0.05) > sized(0.2), `±5 points needs more documents than ±20: ${sized(0.05)} vs ${sized(0.2)}`);
  assert.equal(sized(0.001), sections.length, "an unreachable target measures every document");
});

test("the sampled documents are one array per sample, so per-docs caches are built once", () => {
  const sample = resolveRowSample(docs, configs, { kind: "count", count: 5 })!;
  const picked = docsOfSample(docs, sample);
  assert.equal(docsOfSample(docs, { ...sample }), picked);
  assert.deepEqual(
    picked.map((d) => d.id),
    sample.indexes.map((i) => docs[i].id),
  );
  assert.throws(() => docsOfSample(docs, { ...sample, indexes: [docs.length] }), /outside/);
});

test("sampled rows keep seams and retrieval of the whole corpus, and take damage and tokens from the sample", async () => {
  const whole = await runGrid({ docs, queries: set.queries }, spec, { workers: 0, cacheDir: null });
  const sample = resolveRowSample(docs, configs, { kind: "count", count: 10 })!;
  const sampled = await runGrid({ docs, queries: set.queries, sample }, spec, { workers: 0, cacheDir: null });
  const measured = docsOfSample(docs, sample);
  const ids = new Set(measured.map((d) => d.id));
  sampled.rows.forEach((row, i) => {
    const full = whole.rows[i];
    assert.deepEqual(row.seams, full.seams);
    assert.deepEqual(row.retrieval, full.retrieval);
    assert.equal(row.hits, full.hits);
    assert.notEqual(row.key, full.key, "the sample is part of the cache key");
    assert.equal(full.sample, undefined);
    const chunks = splitCorpus(docs, row.config.splitter);
    // Damage: exactly what measuring the sampled documents alone gives.
    assert.deepEqual(
      row.damage,
      measureSeamDamage(
        measured,
        chunks.filter((c) => ids.has(c.doc)),
      ),
    );
    const s = row.sample!;
    assert.equal(s.documents, 10);
    assert.ok(s.keptPctCI.low <= row.damage.keptPct && row.damage.keptPct <= s.keptPctCI.high);
    // Tokens: an estimate whose CI holds the exact count over every chunk, and which is close to it.
    const count = chunkTokenCounter(docs);
    const exact = chunks.reduce((sum, c) => sum + count(c), 0);
    assert.equal(full.tokensEmbedded, exact);
    assert.ok(s.tokensEmbeddedCI.low <= exact && exact <= s.tokensEmbeddedCI.high, `${exact} in ${JSON.stringify(s)}`);
    assert.ok(Math.abs(row.tokensEmbedded - exact) / exact < 0.1);
  });
});

test("a worker thread measures the same sample as this thread", async () => {
  const sample = resolveRowSample(docs, configs, { kind: "count", count: 10 })!;
  const inputs = { docs, queries: set.queries, sample };
  const here = await runGrid(inputs, spec, { workers: 0, cacheDir: null });
  const there = await runGrid(inputs, spec, { workers: 1, cacheDir: null, keepWorkers: false });
  assert.deepEqual(there.rows, here.rows);
});
