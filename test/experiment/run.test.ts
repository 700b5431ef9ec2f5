import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCorpus } from "../../src/corpus/load";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { createBm25Retriever } from "../../src/retrieval/bm25";
import { splitCorpus } from "../../src/splitters/registry";
import { expandGrid, type GridSpec } from "../../src/experiment/grid";
import { defaultWorkers, runGrid } from "../../src/experiment/run";
import { closeWorkers } from "../../src/experiment/execute";
import { workersPerKernel } from "../../src/report/schedule";
import { compareRows } from "../../src/experiment/sweep";
import { SeamlabError } from "../../src/core/errors";
import { fastifyGuides } from "../helpers/corpora";

const set = buildHeaderQueries(loadCorpus(fastifyGuides).docs);
const inputs = { docs: set.docs, queries: set.queries };
const tempDir = () => mkdtempSync(join(tmpdir(), "seamlab-run-test-"));

const spec: GridSpec = { splitters: ["window", "langchain"], sizes: [400], overlaps: [0, 50, 100, 200] };
const json = (value: unknown) => JSON.stringify(value);

test("the test corpus has enough header queries to mean something", () => {
  assert.ok(inputs.queries.length >= 30, `${inputs.queries.length} queries`);
});

test("runGrid gives one row per config in config order, with seam, damage and retrieval metrics with CIs", async () => {
  const result = await runGrid(inputs, spec, { workers: 0, cacheDir: null });
  const configs = expandGrid(spec);
  assert.equal(result.rows.length, configs.length);
  assert.deepEqual(
    result.rows.map((r) => r.config),
    JSON.parse(json(configs)),
  );
  for (const row of result.rows) {
    assert.equal(row.hits.length, inputs.queries.length);
    const hits = [...row.hits].filter((c) => c === "1").length;
    assert.equal(row.retrieval.hits, hits);
    assert.ok(
      row.retrieval.hitRateCI.low <= row.retrieval.hitRate && row.retrieval.hitRate <= row.retrieval.hitRateCI.high,
    );
    assert.equal(row.seams.chunks, row.retrieval.chunks);
    assert.ok(row.damage.pairs > 0);
    assert.ok(row.tokensEmbedded > 0);
  }
  // The window splitter repeats exactly `overlap` characters at every seam.
  const window100 = result.rows.find(
    (r) => r.config.splitter.splitter === "window" && r.config.splitter.overlap === 100,
  );
  assert.equal(window100?.seams.medianOverlap, 100);
  // Costs: ratio 1 at overlap 0, more tokens with more overlap for the window.
  const windows = result.rows.filter((r) => r.config.splitter.splitter === "window");
  assert.equal(windows[0].cost.tokensRatio, 1);
  for (let i = 1; i < windows.length; i++)
    assert.ok((windows[i].cost.tokensRatio as number) > (windows[i - 1].cost.tokensRatio as number));
});

test("a row's hits match BM25 top-5 computed directly on the same chunks", async () => {
  const result = await runGrid(
    inputs,
    [{ splitter: { splitter: "window", size: 400, overlap: 50 }, retrieval: { k: 5 } }],
    { workers: 0, cacheDir: null },
  );
  const chunks = splitCorpus(inputs.docs, { splitter: "window", size: 400, overlap: 50, unit: "chars" });
  const bm25 = createBm25Retriever(chunks);
  const expected = inputs.queries
    .map((q) => {
      const top = bm25.search(q.text, 5) as { index: number }[];
      const gold = q.gold[0];
      return top.some(
        ({ index }) =>
          chunks[index].doc === gold.doc && chunks[index].start <= gold.start && chunks[index].end >= gold.end,
      )
        ? "1"
        : "0";
    })
    .join("");
  assert.equal(result.rows[0].hits, expected);
});

test("worker threads and the main thread give identical rows, and a second run reads them all from the cache", async () => {
  const dir = tempDir();
  const inProcess = await runGrid(inputs, spec, { workers: 0, cacheDir: null });
  const parallel = await runGrid(inputs, spec, { workers: 2, cacheDir: dir });
  assert.equal(parallel.workers, 2);
  assert.equal(json(parallel.rows), json(inProcess.rows));
  // The documents' setup is built in one share per thread, before any row task starts.
  assert.equal(inProcess.setupTimes.length, 0);
  assert.equal(parallel.setupTimes.length, 2);
  const setupEnd = Math.max(...parallel.setupTimes.map((t) => t.startMs + t.ms));
  for (const t of parallel.taskTimes) assert.ok(t.startMs >= setupEnd - 1, "row tasks wait for the setup");
  const warm = await runGrid(inputs, spec, { workers: 2, cacheDir: dir });
  assert.equal(warm.cached, warm.total);
  assert.equal(warm.computed, 0);
  assert.equal(warm.setupTimes.length, 0, "nothing to compute, no setup");
  assert.equal(json(warm.rows), json(inProcess.rows));
});

test("a sweep interrupted half-way and re-run gives exactly the rows of an uninterrupted run", async () => {
  const fresh = await runGrid(inputs, spec, { workers: 0, cacheDir: tempDir() });
  // Half the grid, then the whole grid (the rest on worker threads).
  const dirA = tempDir();
  const configs = expandGrid(spec);
  await runGrid(inputs, configs.slice(0, configs.length / 2), { workers: 0, cacheDir: dirA });
  const resumed = await runGrid(inputs, configs, { workers: 2, cacheDir: dirA });
  assert.equal(resumed.cached, configs.length / 2);
  assert.equal(resumed.computed, configs.length / 2);
  assert.equal(json(resumed.rows), json(fresh.rows));
  // A real abort (what Ctrl-C does) after the first finished row.
  const dirB = tempDir();
  const controller = new AbortController();
  const partial = await runGrid(inputs, spec, {
    workers: 0,
    cacheDir: dirB,
    signal: controller.signal,
    onRow: () => controller.abort(),
  });
  assert.equal(partial.interrupted, true);
  assert.ok(partial.rows.length >= 1 && partial.rows.length < configs.length);
  for (const shard of readdirSync(dirB)) {
    for (const file of readdirSync(join(dirB, shard)))
      assert.match(file, /^[0-9a-f]{64}\.json$/, "no temp file left behind");
  }
  const rerun = await runGrid(inputs, spec, { workers: 0, cacheDir: dirB });
  assert.equal(rerun.interrupted, false);
  assert.equal(rerun.cached, partial.rows.length);
  assert.equal(json(rerun.rows), json(fresh.rows));
});

test("a corrupt cache entry is recomputed, and a changed document invalidates every entry", async () => {
  const dir = tempDir();
  const one = [{ splitter: { splitter: "window", size: 400, overlap: 0 }, retrieval: { k: 5 } }];
  const first = await runGrid(inputs, one, { workers: 0, cacheDir: dir });
  const shard = readdirSync(dir)[0];
  const file = join(dir, shard, readdirSync(join(dir, shard))[0]);
  writeFileSync(file, "{ truncated");
  const again = await runGrid(inputs, one, { workers: 0, cacheDir: dir });
  assert.equal(again.computed, 1);
  assert.equal(json(again.rows), json(first.rows));
  const edited = {
    docs: inputs.docs.map((d, i) => (i === 0 ? { ...d, text: d.text + "\nOne more line." } : d)),
    queries: inputs.queries,
  };
  const changed = await runGrid(edited, one, { workers: 0, cacheDir: dir });
  assert.equal(changed.computed, 1, "a corpus edit is a cache miss, never a stale hit");
});

test("joint sweep: without a reranker recall@3 does not depend on the first-stage depth; MMR trims overlapping top-3s", async () => {
  const joint: GridSpec = {
    splitters: ["window"],
    sizes: [400],
    overlaps: [200],
    ks: [5, 10, 20],
    finalK: 3,
    rerankers: ["none", "mmr"],
  };
  const result = await runGrid(inputs, joint, { workers: 0, cacheDir: null });
  const none = result.rows.filter((r) => r.config.retrieval.reranker === "none");
  const mmr = result.rows.filter((r) => r.config.retrieval.reranker === "mmr");
  assert.equal(none.length, 3);
  assert.ok(none.every((r) => r.hits === none[0].hits && r.retrieval.k === 3));
  for (const row of mmr) {
    assert.ok(row.retrieval.queriesWithOverlappingTopK < none[0].retrieval.queriesWithOverlappingTopK);
    assert.ok(row.retrieval.meanDistinct > none[0].retrieval.meanDistinct);
  }
});

test("compareRows pairs two rows query by query", async () => {
  const result = await runGrid(
    inputs,
    { splitters: ["window"], sizes: [400], overlaps: [0, 200] },
    { workers: 0, cacheDir: null },
  );
  const [zero, two] = result.rows;
  const comparison = compareRows(two, zero);
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < zero.hits.length; i++) {
    if (two.hits[i] === "1" && zero.hits[i] === "0") wins++;
    if (two.hits[i] === "0" && zero.hits[i] === "1") losses++;
  }
  assert.equal(comparison.wins, wins);
  assert.equal(comparison.losses, losses);
  assert.equal(comparison.queries, inputs.queries.length);
  assert.ok(comparison.mcnemarP > 0 && comparison.mcnemarP <= 1);
});

test("runGrid refuses an empty corpus or query set with a SeamlabError", async () => {
  const one = [{ splitter: { splitter: "window", size: 400, overlap: 0 }, retrieval: { k: 5 } }];
  await assert.rejects(
    runGrid({ docs: [], queries: inputs.queries }, one, { workers: 0, cacheDir: null }),
    /no documents/,
  );
  await assert.rejects(
    runGrid({ docs: inputs.docs, queries: [] }, one, { workers: 0, cacheDir: null }),
    /query set is empty/,
  );
  await assert.rejects(
    runGrid(inputs, [{ splitter: { splitter: "nope", size: 400, overlap: 0 }, retrieval: { k: 5 } }], {
      workers: 0,
      cacheDir: null,
    }),
    /unknown --splitter "nope"/,
  );
});

test("a user error raised inside a worker thread comes back as a SeamlabError", async () => {
  const bad = [
    { splitter: { splitter: "window", size: 400, overlap: 0 }, retrieval: { k: 5, retriever: "no-such-retriever" } },
  ];
  await assert.rejects(
    runGrid(inputs, bad, { workers: 1, cacheDir: null }),
    (e: unknown) => e instanceof SeamlabError && /unknown retriever "no-such-retriever"/.test(e.message),
  );
});

test("token-window configs bundled into worker tasks still come back one row per config, in order", async () => {
  const grid: GridSpec = { splitters: ["tokens", "window"], sizes: [120], overlaps: [0, 30], units: ["tokens"] };
  const inThread = await runGrid(inputs, grid, { workers: 0, cacheDir: null });
  const pooled = await runGrid(inputs, grid, { workers: 2, cacheDir: null });
  assert.deepEqual(
    pooled.rows.map((r) => r.label),
    ["tokens 120/0 tokens, k=5", "tokens 120/30 tokens, k=5", "window 120/0 tokens, k=5", "window 120/30 tokens, k=5"],
  );
  assert.equal(json(pooled.rows), json(inThread.rows));
  assert.equal(pooled.taskTimes.length, 2, "four token-unit configs and nothing else: one task per thread");
  assert.deepEqual(
    pooled.taskTimes.map((t) => t.rows),
    [2, 2],
  );
  if (process.platform === "linux")
    for (const t of pooled.taskTimes)
      assert.ok(
        t.osThread !== undefined && t.osThread !== process.pid,
        "a worker's kernel thread id, for bench:workers",
      );
  const onePool = await runGrid(inputs, grid, { workers: 1, cacheDir: null });
  assert.equal(json(onePool.rows), json(inThread.rows));
  assert.equal(onePool.taskTimes.length, 1, "one thread: all four share one task (one tokenizer warm-up)");
});

test("worker threads default to the cores, capped by SEAMLAB_WORKERS; the report shares cores between notebooks", () => {
  assert.equal(defaultWorkers({ SEAMLAB_WORKERS: "1" }), 1);
  assert.equal(defaultWorkers({ SEAMLAB_WORKERS: " 0 " }), 0);
  assert.ok(defaultWorkers({}) >= 1);
  assert.equal(defaultWorkers({ SEAMLAB_WORKERS: "lots" }), defaultWorkers({}), "an unreadable value is ignored");
  assert.equal(workersPerKernel(2, 2), 1, "two notebooks on two cores: one worker thread each");
  assert.equal(workersPerKernel(1, 2), 2);
  assert.equal(workersPerKernel(3, 8), 2);
  assert.equal(workersPerKernel(4, 2), 1, "never fewer than one");
});

test("a kept pool reuses the documents' setup it built for the same corpus; a new pool builds it again", async () => {
  const first: GridSpec = { splitters: ["window"], sizes: [300], overlaps: [0, 50] };
  const second: GridSpec = { splitters: ["window"], sizes: [300], overlaps: [100, 150] };
  await closeWorkers(); // earlier tests keep a pool (the default) with this corpus's setup
  try {
    const a = await runGrid(inputs, first, { workers: 2, cacheDir: null, keepWorkers: true });
    const b = await runGrid(inputs, second, { workers: 2, cacheDir: null, keepWorkers: true });
    assert.equal(a.setupTimes.length, 2);
    assert.equal(b.setupTimes.length, 0, "the kept pool's setup serves the second grid");
    const inThread = await runGrid(inputs, second, { workers: 0, cacheDir: null });
    assert.equal(json(b.rows), json(inThread.rows));
    await closeWorkers();
    const c = await runGrid(inputs, second, { workers: 2, cacheDir: null, keepWorkers: true });
    assert.equal(c.setupTimes.length, 2, "closing the pool drops its setup");
    assert.equal(json(c.rows), json(inThread.rows));
  } finally {
    await closeWorkers();
  }
});
