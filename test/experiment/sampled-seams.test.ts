// Seam statistics on a document sample of a streamed corpus: `all` equals the unsampled measurement, a fixed count
// measures exactly the sampled files, and `auto` stops below the corpus when the shares need fewer documents,
// with a cluster-bootstrap CI that covers the all-documents value.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { streamCorpus } from "../../src/corpus/load";
import { measureCorpusSeams, type CorpusSeamsOptions } from "../../src/experiment/doc-cache";
import { documentsNeeded, measureSampledSeams, seamShares } from "../../src/experiment/sampled-seams";
import type { SplitterConfig } from "../../src/splitters/config";
import { documentShareInterval } from "../../src/study/sampling";
import { generatedProse } from "../helpers/prose";

const config: SplitterConfig = { splitter: "langchain", size: 300, overlap: 60 };
const options: CorpusSeamsOptions = { cacheDir: null, structureLimit: 600 };
let dir = "";

before(() => {
  dir = mkdtempSync(join(tmpdir(), "seamlab-sampled-seams-"));
  // 240 documents in two folders, 600 to 4,000 characters: enough that a ±5-point target needs fewer than all.
  for (const folder of ["guides", "reference"]) mkdirSync(join(dir, folder));
  for (let i = 0; i < 240; i++) {
    const folder = i % 3 === 0 ? "reference" : "guides";
    writeFileSync(
      join(dir, folder, `doc-${String(i).padStart(3, "0")}.md`),
      generatedProse(600 + ((i * 97) % 3400), i),
    );
  }
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("--sample all is one pass over every document, with the same numbers as the unsampled measurement", async () => {
  const passes: number[] = [];
  const sampled = await measureSampledSeams(
    streamCorpus(dir),
    config,
    options,
    { kind: "all" },
    {
      onPass: (docs) => passes.push(docs),
    },
  );
  const whole = await measureCorpusSeams(streamCorpus(dir).docs(), config, options);
  assert.deepEqual(passes, [240]);
  assert.deepEqual(sampled.measured.summary, whole.summary);
  assert.deepEqual(sampled.measured.seamDamage, whole.seamDamage);
  assert.equal(sampled.sample.indexes.length, 240);
  assert.match(sampled.sample.description, /^all 240 documents$/);
  assert.equal(sampled.corpusChars, whole.summary.chars);
  const shares = sampled.shares;
  assert.equal(
    shares.zeroSeams.reduce((s, k) => s + k, 0),
    whole.summary.zeroOverlapSeams,
  );
  assert.equal(
    shares.kept.reduce((s, k) => s + k, 0),
    whole.seamDamage.kept,
  );
});

test("a fixed count measures exactly the sampled documents, read once each", async () => {
  const results: string[] = [];
  const sampled = await measureSampledSeams(
    streamCorpus(dir),
    config,
    options,
    { kind: "count", count: 40 },
    {
      onResult: (part) => results.push(part.doc),
    },
  );
  assert.equal(sampled.sample.indexes.length, 40);
  assert.deepEqual(
    results,
    sampled.sample.docs.map((d) => d.id),
  );
  assert.equal(sampled.measured.summary.docs, 40);
  assert.equal(sampled.sample.population, 240);
  assert.ok(sampled.corpusChars > sampled.measured.summary.chars);
  assert.match(sampled.sample.description, /^a seeded sample of 40 of 240 documents, stratified .*\(--sample 40\)$/);
  // Both folders are in the sample (stratified), in proportion to their 80 and 160 documents.
  const reference = results.filter((id) => id.startsWith("reference/")).length;
  assert.ok(reference >= 12 && reference <= 15, `reference documents sampled: ${reference}`);
});

test("auto stops below the corpus when the target allows, and its CI covers the all-documents share", async () => {
  const passes: number[] = [];
  const auto = await measureSampledSeams(
    streamCorpus(dir),
    config,
    options,
    { kind: "auto", halfWidth: 0.05 },
    { onPass: (docs) => passes.push(docs) },
  );
  const n = auto.sample.indexes.length;
  assert.ok(n < 240, `auto measured ${n} of 240`);
  assert.equal(passes[0], 100, "the pilot");
  assert.equal(passes.at(-1), n, "the last pass is the result: nothing measured again");
  assert.match(auto.sample.description, /auto: sized for a 95% CI of ±5\.0 points/);
  assert.ok(documentsNeeded(auto.shares, 0.05, auto.sample.strata) <= n);
  const whole = await measureCorpusSeams(streamCorpus(dir).docs(), config, options);
  const truth = whole.summary.zeroOverlapSeams / whole.summary.seams;
  const ci = documentShareInterval(
    { numerators: auto.shares.zeroSeams, denominators: auto.shares.seams },
    auto.sample.strata,
  );
  assert.ok(ci.low <= truth && truth <= ci.high, `${truth} in [${ci.low}, ${ci.high}]`);
});

test("a first run counts its own pilot as measured, not as taken from the cache; a corpus too small says so", async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "seamlab-sampled-cache-"));
  try {
    const run = async () => {
      const passes: number[] = [];
      const result = await measureSampledSeams(
        streamCorpus(dir),
        config,
        { ...options, cacheDir },
        { kind: "auto", halfWidth: 0.005 },
        { onPass: (docs) => passes.push(docs) },
      );
      return { passes, result };
    };
    const first = await run();
    assert.ok(first.passes.length > 1 && first.passes[0] === 100, `passes ${first.passes.join(", ")}`);
    assert.equal(first.result.sample.indexes.length, 240);
    assert.equal(first.result.sample.description, "all 240 documents (auto: too few for a 95% CI of ±0.5 points)");
    assert.deepEqual([first.result.measured.computed, first.result.measured.cached], [240, 0]);
    const second = await run();
    assert.deepEqual([second.result.measured.computed, second.result.measured.cached], [0, 240]);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test("seamShares counts zero-overlap seams and kept pairs per document", () => {
  const part = { overlaps: [0, 5, 0], kept: 2, pairs: 3 };
  const shares = seamShares([part as never, { overlaps: [], kept: 0, pairs: 0 } as never]);
  assert.deepEqual(shares, { zeroSeams: [2, 0], seams: [3, 0], kept: [2, 0], pairs: [3, 0] });
});
