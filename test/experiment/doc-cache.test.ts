// The per-document seams cache: a re-run after editing or adding one file measures exactly that file, and the
// numbers equal a cold run; damaged entries are recomputed; the cache only ever removes files it wrote.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { streamCorpus } from "../../src/corpus/load";
import { clearCache } from "../../src/experiment/cache";
import { docSeamsKey, measureCorpusSeams, type CorpusSeamsOptions } from "../../src/experiment/doc-cache";
import type { SplitterConfig } from "../../src/splitters/config";
import { generatedProse } from "../helpers/prose";

const config: SplitterConfig = { splitter: "recursive", size: 200, overlap: 40 };
let dir = "";
let corpus = "";
let cacheDir = "";

before(() => {
  dir = mkdtempSync(join(tmpdir(), "seamlab-doc-cache-"));
  corpus = join(dir, "corpus");
  cacheDir = join(dir, "cache");
  mkdirSync(join(corpus, "sub"), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(corpus, i < 3 ? "" : "sub", `doc-${i}.md`), generatedProse(2000, i));
});

after(() => rmSync(dir, { recursive: true, force: true }));

const options = (cache: string | null): CorpusSeamsOptions => ({ cacheDir: cache, structureLimit: 400 });

async function measure(cache: string | null) {
  const { computed, cached, rejected, ...numbers } = await measureCorpusSeams(
    streamCorpus(corpus).docs(),
    config,
    options(cache),
  );
  return { computed, cached, rejected, numbers };
}

test("a cold run measures every document; a warm run takes every one from the cache, with equal numbers", async () => {
  const cold = await measure(cacheDir);
  assert.deepEqual([cold.computed, cold.cached], [5, 0]);
  const warm = await measure(cacheDir);
  assert.deepEqual([warm.computed, warm.cached, warm.rejected], [0, 5, 0]);
  assert.deepEqual(warm.numbers, cold.numbers);
  assert.ok(cold.numbers.summary.seams > 20);
});

test("after editing one file a re-run measures exactly that file, and matches a run without the cache", async () => {
  await measure(cacheDir);
  writeFileSync(join(corpus, "sub", "doc-3.md"), generatedProse(2600, 99));
  const rerun = await measure(cacheDir);
  assert.deepEqual([rerun.computed, rerun.cached], [1, 4]);
  const uncached = await measure(null);
  assert.deepEqual([uncached.computed, uncached.cached], [5, 0]);
  assert.deepEqual(rerun.numbers, uncached.numbers);
});

test("adding a file measures only the new one", async () => {
  await measure(cacheDir);
  writeFileSync(join(corpus, "doc-new.md"), generatedProse(1800, 42));
  const rerun = await measure(cacheDir);
  assert.deepEqual([rerun.computed, rerun.cached], [1, 5]);
  rmSync(join(corpus, "doc-new.md"));
});

test("another config, or the same text under another id, is a different entry", async () => {
  const [doc] = [...streamCorpus(corpus).docs()];
  const key = docSeamsKey(doc, config, options(cacheDir));
  assert.notEqual(docSeamsKey(doc, { ...config, overlap: 41 }, options(cacheDir)), key);
  assert.notEqual(docSeamsKey({ ...doc, id: "elsewhere.md" }, config, options(cacheDir)), key);
  assert.notEqual(docSeamsKey(doc, config, { ...options(cacheDir), structureLimit: 401 }), key);
  assert.equal(docSeamsKey({ ...doc }, { overlap: 40, size: 200, splitter: "recursive" }, options(cacheDir)), key);
});

test("a damaged entry is not used: it is counted as rejected and recomputed", async () => {
  await measure(cacheDir);
  const [doc] = [...streamCorpus(corpus).docs()];
  const key = docSeamsKey(doc, config, options(cacheDir));
  const entry = join(cacheDir, key.slice(0, 2), `${key}.json`);
  assert.ok(existsSync(entry), "entries live in the experiment cache's shard layout");
  writeFileSync(entry, `{"key":"${key}","sha256":"0","value":{"doc":"${doc.id}"}}`);
  const rerun = await measure(cacheDir);
  assert.deepEqual([rerun.computed, rerun.cached, rerun.rejected], [1, 4, 1]);
  const again = await measure(cacheDir);
  assert.deepEqual([again.computed, again.rejected], [0, 0], "the recomputed entry replaced the damaged one");
});

test("clearing the cache removes its entries and leaves a user's file in the folder alone", async () => {
  await measure(cacheDir);
  writeFileSync(join(cacheDir, "notes.txt"), "mine");
  assert.ok(clearCache(cacheDir) >= 5);
  assert.deepEqual(readdirSync(cacheDir), ["notes.txt"]);
  const cold = await measure(cacheDir);
  assert.equal(cold.computed, 5);
});
