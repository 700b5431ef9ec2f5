// `seamlab seams --sample` on the real OpenTelemetry docs (705 pages) under SEAMLAB_DATA_DIR: a sample's
// cluster-bootstrap CIs of the zero-overlap share and of the share of sentence pairs kept cover the values
// measured on every page, for samples of 200 and 400 pages. (auto measures all 705 here: the pages differ so
// much that even ±3 points would need about 1,037 documents like them.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { join } from "node:path";
import { streamCorpus } from "../../src/corpus/load";
import type { SampleRequest } from "../../src/corpus/sample";
import { measureSampledSeams } from "../../src/experiment/sampled-seams";
import { documentShareInterval } from "../../src/study/sampling";
import { requireDataDir } from "../helpers/data-dir";

const corpus = join(requireDataDir(), "opentelemetry-docs");
const config = { splitter: "langchain", size: 1000, overlap: 200 };
const options = { cacheDir: null, structureLimit: 2000 };

test("seams samples of the OpenTelemetry docs: both CIs cover the all-pages shares", async () => {
  const all = await measureSampledSeams(streamCorpus(corpus), config, options, { kind: "all" });
  const truth = {
    zero: all.measured.summary.zeroOverlapSeams / all.measured.summary.seams,
    kept: all.measured.seamDamage.kept / all.measured.seamDamage.pairs,
  };
  const requests: SampleRequest[] = [
    { kind: "count", count: 200 },
    { kind: "count", count: 400 },
  ];
  for (const request of requests) {
    const sampled = await measureSampledSeams(streamCorpus(corpus), config, options, request);
    const n = sampled.sample.indexes.length;
    assert.ok(n < 705, `${n} pages`);
    const { zeroSeams, seams, kept, pairs } = sampled.shares;
    const zero = documentShareInterval({ numerators: zeroSeams, denominators: seams }, sampled.sample.strata);
    const keptCi = documentShareInterval({ numerators: kept, denominators: pairs }, sampled.sample.strata);
    assert.ok(
      zero.low <= truth.zero && truth.zero <= zero.high,
      `${request.kind} zero: ${truth.zero} outside [${zero.low}, ${zero.high}]`,
    );
    assert.ok(
      keptCi.low <= truth.kept && truth.kept <= keptCi.high,
      `${request.kind} kept: ${truth.kept} outside [${keptCi.low}, ${keptCi.high}]`,
    );
  }
});
