// On opentelemetry-docs (SEAMLAB_DATA_DIR, `npm run test:corpora`), whose `##`/`###` header queries outnumber the
// automatic query sample: the sampled hit rate's 95% CI covers the hit rate on every query, for one config, with
// the corpus indexed whole in both runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadCorpusAndQueries } from "../../src/retrieval/inputs";
import { evaluateSplitterConfig } from "../../src/retrieval/evaluate-config";
import { sampleQueries } from "../../src/retrieval/query-sample";
import { wilsonInterval } from "../../src/stats/proportion";
import { requireDataDir } from "../helpers/data-dir";

test("on opentelemetry-docs the auto query sample's hit-rate CI covers the all-queries hit rate", async () => {
  const corpus = join(requireDataDir(), "opentelemetry-docs");
  const spec = { corpus, queries: "headers" };
  const all = loadCorpusAndQueries({ ...spec, querySample: { kind: "all" } });
  const sampled = loadCorpusAndQueries(spec); // default: auto
  assert.ok(sampled.querySample.sampled, `${all.queries.length} queries: expected more than the auto sample`);
  assert.deepEqual(sampled.docs, all.docs, "the corpus is indexed whole");
  const config = { splitter: "langchain", size: 1000, overlap: 200 };
  const full = await evaluateSplitterConfig(all.docs, all.queries, config);
  const part = await evaluateSplitterConfig(sampled.docs, sampled.queries, config);
  const truth = full.summary.hitRate;
  const ci = part.summary.hitRateCI;
  console.log(
    `opentelemetry-query-sample: all ${all.queries.length} queries ${(100 * truth).toFixed(1)}%; ` +
      `${sampled.querySample.description}: ${(100 * part.summary.hitRate).toFixed(1)}% ` +
      `[${(100 * ci.low).toFixed(1)}, ${(100 * ci.high).toFixed(1)}]`,
  );
  assert.ok(ci.low <= truth && truth <= ci.high, `${truth} outside [${ci.low}, ${ci.high}]`);
  // Each sampled query scores as it did in the full run (same index, same query): sampling only picks queries.
  const byId = new Map(full.outcomes.map((o) => [o.id, o.hit]));
  assert.ok(part.outcomes.every((o) => byId.get(o.id) === o.hit));
  // Other seeds, scored from the full run's outcomes: a sample of over half the queries (finite population) sits
  // well inside its Wilson CI, so every one of ten seeds covers the truth.
  for (let seed = 2; seed <= 11; seed++) {
    const s = sampleQueries(all.queries, { kind: "auto", halfWidth: 0.025 }, seed);
    const hits = s.queries.filter((q) => byId.get(q.id)).length;
    const w = wilsonInterval(hits, s.queries.length);
    assert.ok(w.low <= truth && truth <= w.high, `seed ${seed}: ${truth} outside [${w.low}, ${w.high}]`);
  }
});
