import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SeamlabError } from "../../src/core/errors";
import type { Query } from "../../src/core/types";
import { runOverlapSweep } from "../../src/experiment/sweep";
import { withSampleAdvice } from "../../src/experiment/sample-advice";
import { verdictText } from "../../src/experiment/verdict";
import { loadCorpusAndQueries } from "../../src/retrieval/inputs";
import { buildQuerySet } from "../../src/retrieval/query-source";
import {
  parseQuerySample,
  queriesForHalfWidth,
  raiseSampleAdvice,
  sampleQueries,
  sampledLabel,
} from "../../src/retrieval/query-sample";
import type { Decision } from "../../src/stats/non-inferiority";

const queries = (n: number): Query[] =>
  Array.from({ length: n }, (_, i) => ({ id: `q${i}`, text: `query ${i}`, gold: [] }));

// 60 documents with 3 headed sections each (180 header queries), varied enough that configs differ.
const dir = mkdtempSync(join(tmpdir(), "seamlab-query-sample-"));
for (let d = 0; d < 60; d++) {
  const sections = [0, 1, 2].map(
    (s) =>
      `## Topic ${d} part ${s} about ${["tracing", "metrics", "logs"][s]}\n\n` +
      `The ${["collector", "exporter", "sampler"][(d + s) % 3]} number ${d}-${s} handles ${s} things for unit ${d}. ` +
      `It is configured in file ${d}.${s} and restarts after ${d * s} seconds. ${"Filler words follow here. ".repeat(4 + ((d * 7 + s) % 9))}`,
  );
  writeFileSync(join(dir, `doc${String(d).padStart(2, "0")}.md`), `# Doc ${d}\n\n${sections.join("\n\n")}\n`);
}

test("the query-sample request is read as auto, auto:H, a count or all, and a bad value names the flag", () => {
  assert.deepEqual(parseQuerySample(undefined), { kind: "auto", halfWidth: 0.025 });
  assert.deepEqual(parseQuerySample("auto"), { kind: "auto", halfWidth: 0.025 });
  assert.deepEqual(parseQuerySample("auto:0.01"), { kind: "auto", halfWidth: 0.01 });
  assert.deepEqual(parseQuerySample("all"), { kind: "all" });
  assert.deepEqual(parseQuerySample("250"), { kind: "count", count: 250 });
  assert.deepEqual(parseQuerySample(250), { kind: "count", count: 250 });
  for (const bad of ["0", "-3", "1.5", "some", "auto:0", "auto:0.7", "1e3"]) {
    assert.throws(
      () => parseQuerySample(bad),
      (e: unknown) =>
        e instanceof SeamlabError && e.message.startsWith("--query-sample must be") && e.message.includes(`"${bad}"`),
    );
  }
  assert.throws(() => parseQuerySample("x", "the querySample parameter"), /^SeamlabError: the querySample parameter/);
});

test("auto keeps every query up to the size that bounds a hit rate's CI to ±2.5 points, and samples above it", () => {
  assert.equal(queriesForHalfWidth(0.025), 1537); // 1.96² · 0.25 / 0.025² = 1536.6
  const small = sampleQueries(queries(1537));
  assert.equal(small.sampled, false);
  assert.equal(small.description, "all 1,537 queries");
  const large = sampleQueries(queries(4212));
  assert.equal(large.queries.length, 1537);
  assert.equal(large.population, 4212);
  assert.match(
    large.description,
    /^a seeded sample of 1,537 of 4,212 queries \(auto: 95% CI of a hit rate at most ±2\.5 points\)$/,
  );
  assert.equal(sampledLabel("4212 header queries", large), "1,537 of 4,212 header queries, a seeded sample");
  assert.equal(sampledLabel("301 header queries", small), "301 header queries");
});

test("a query sample is seeded: the same request draws the same queries, in their original order", () => {
  const all = queries(1000);
  const a = sampleQueries(all, { kind: "count", count: 100 });
  const b = sampleQueries(all, { kind: "count", count: 100 });
  assert.deepEqual(
    a.queries.map((q) => q.id),
    b.queries.map((q) => q.id),
  );
  assert.deepEqual(
    a.indexes,
    [...a.indexes].sort((x, y) => x - y),
  );
  assert.equal(new Set(a.indexes).size, 100);
  const other = sampleQueries(all, { kind: "count", count: 100 }, 2);
  assert.notDeepEqual(other.indexes, a.indexes);
  // not just the first 100: a simple random sample reaches across the list
  assert.ok(a.indexes[a.indexes.length - 1] > 500);
});

test("loading with --query-sample samples the queries but never the corpus", () => {
  const full = loadCorpusAndQueries({ corpus: dir, querySample: { kind: "all" } });
  const sampled = loadCorpusAndQueries({ corpus: dir, querySample: { kind: "count", count: 40 } });
  assert.equal(full.queries.length, 180);
  assert.equal(sampled.queries.length, 40);
  assert.deepEqual(sampled.docs, full.docs);
  assert.equal(sampled.queryLabel, "40 of 180 header queries (## and ###), a seeded sample");
  assert.match(sampled.queryDescription, /of these, a seeded sample of 40 of 180 queries \(query sample 40\) run$/);
  const ids = new Set(full.queries.map((q) => q.id));
  assert.ok(sampled.queries.every((q) => ids.has(q.id)));
});

test("all equals an unsampled run, and every config of a sampled sweep is scored on the same sampled queries", async () => {
  const set = buildQuerySet("headers", (await import("../../src/corpus/load")).loadCorpus(dir).docs);
  const spec = { splitter: "window", size: 300, overlaps: [0, 100] };
  const options = { workers: 0, quiet: true, cacheDir: null, metric: "hitRate" as const };
  const today = await runOverlapSweep({ docs: set.docs, queries: set.queries }, spec, options);
  const all = loadCorpusAndQueries({ corpus: dir, querySample: { kind: "all" } });
  const viaAll = await runOverlapSweep({ docs: all.docs, queries: all.queries }, spec, options);
  assert.deepEqual(
    viaAll.rows.map((r) => r.retrieval),
    today.rows.map((r) => r.retrieval),
  );
  const part = loadCorpusAndQueries({ corpus: dir, querySample: { kind: "count", count: 50 } });
  const sampled = await runOverlapSweep({ docs: part.docs, queries: part.queries }, spec, options);
  assert.ok(sampled.rows.every((r) => r.retrieval.queries === 50));
  assert.equal(sampled.curves[0].decision.queries, 50);
  // the paired decision saw the same 50 queries for both overlaps: its per-config rates are the rows' hit rates
  sampled.curves[0].decision.configs.forEach((c, i) => assert.equal(c.rate, sampled.rows[i].retrieval.hitRate));
});

test("an undecided verdict on a sample says to raise the sample before writing more queries", () => {
  const sample = sampleQueries(queries(4212), { kind: "count", count: 1000 });
  assert.match(
    raiseSampleAdvice(2500, sample),
    /These 1,000 queries are a sample of 4,212: raise --query-sample to 2,500 before/,
  );
  assert.match(
    raiseSampleAdvice(9000, sample),
    /to all before writing more queries, though all 4,212 may still not settle it/,
  );
  assert.equal(raiseSampleAdvice(800, sample), "");
  assert.equal(raiseSampleAdvice(null, sample), "");
  assert.equal(raiseSampleAdvice(9000, sampleQueries(queries(300))), "", "nothing to raise when every query ran");
  const decision: Decision = {
    verdict: "undecided",
    margin: 0.01,
    level: 0.95,
    queries: 1000,
    resamples: 200,
    best: 1,
    baseline: 0,
    choice: 1,
    choiceIsNonInferior: true,
    candidates: [0],
    withinChoice: [],
    queriesNeeded: 2500,
    configs: [0, 1].map((index) => ({
      index,
      label: String(index),
      cost: index,
      rate: 0.5,
      fromBest: { diff: 0.005, low: -0.01, high: 0.02, mcnemarP: 0.5 },
      fromBaseline: { diff: 0, low: 0, high: 0, mcnemarP: 1 },
      status: index === 0 ? "unclear" : "non-inferior",
      queriesNeeded: index === 0 ? 2500 : null,
    })) as Decision["configs"],
  };
  const noted = withSampleAdvice({ curves: [{ decision } as never], grids: [] }, sample, "--query-sample");
  const text = verdictText((noted.curves[0] as { decision: Decision }).decision, (i) => `overlap ${i}`);
  assert.match(
    text,
    /\*\*Undecided\*\*.*About 2,500 queries in all would decide it.*1,500 more.*raise --query-sample to 2,500 before/,
  );
  const unsampled = withSampleAdvice({ curves: [{ decision } as never], grids: [] }, sampleQueries(queries(1000)), "x");
  assert.doesNotMatch(verdictText((unsampled.curves[0] as { decision: Decision }).decision, String), /raise/);
});
