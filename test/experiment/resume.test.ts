import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCorpus } from "../../src/corpus/load";
import { describeConfig, expandGrid, type GridSpec } from "../../src/experiment/grid";
import { runGrid } from "../../src/experiment/run";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { fastifyGuides, projectRoot } from "../helpers/corpora";

const set = buildHeaderQueries(loadCorpus(fastifyGuides).docs);
const inputs = { docs: set.docs, queries: set.queries };
const tempDir = () => mkdtempSync(join(tmpdir(), "seamlab-resume-test-"));
const json = (value: unknown) => JSON.stringify(value);

/** Finished cache entries on disk (temp files of an interrupted write do not count). */
function entries(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir)
    .flatMap((shard) => readdirSync(join(dir, shard)))
    .filter((file) => /^[0-9a-f]{64}\.json$/.test(file)).length;
}

// Twelve splitter configs, so twelve tasks: each row is cached as soon as its task finishes.
const spec: GridSpec = { splitters: ["window", "langchain"], sizes: [300], overlaps: [0, 25, 50, 75, 100, 150] };

test("a sweep on two worker threads aborted after three rows resumes from the cache and computes only the rest", async () => {
  const configs = expandGrid(spec);
  const fresh = await runGrid(inputs, spec, { workers: 0, cacheDir: null });
  const dir = tempDir();
  const controller = new AbortController();
  const partial = await runGrid(inputs, spec, {
    workers: 2,
    cacheDir: dir,
    signal: controller.signal,
    onRow: (_row, done) => {
      if (done >= 3) controller.abort();
    },
  });
  assert.equal(partial.interrupted, true);
  const saved = entries(dir);
  assert.ok(saved >= 3 && saved < configs.length, `${saved} rows saved of ${configs.length}`);
  assert.equal(partial.rows.length, saved, "every finished row is on disk, and only those");

  const computedLabels: string[] = [];
  const resumed = await runGrid(inputs, spec, {
    workers: 2,
    cacheDir: dir,
    onRow: (row) => computedLabels.push(row.label),
  });
  assert.equal(resumed.cached, saved);
  assert.equal(resumed.computed, configs.length - saved);
  // The configs computed again are exactly those the interrupted run had not finished.
  const finishedBefore = new Set(partial.rows.map((row) => row.label));
  assert.deepEqual(
    [...computedLabels].sort(),
    configs
      .map(describeConfig)
      .filter((label) => !finishedBefore.has(label))
      .sort(),
  );
  assert.equal(json(resumed.rows), json(fresh.rows));
});

test("a sweep process killed with SIGKILL mid-run resumes: the re-run reads the finished rows and computes the rest", async () => {
  const bin = join(projectRoot, "bin", "seamlab.js");
  const overlaps = Array.from({ length: 12 }, (_, i) => i * 10).join(",");
  const args = ["sweep", "--corpus", fastifyGuides, "--splitter", "langchain", "--size", "200"];
  const tail = ["--overlaps", overlaps, "--json", "--quiet"];
  const dir = tempDir();
  const child = spawn(process.execPath, [bin, ...args, ...tail, "--workers", "1", "--cache-dir", dir], {
    cwd: projectRoot,
    stdio: "ignore",
  });
  const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
  while (entries(dir) < 2 && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
  child.kill("SIGKILL"); // no handler runs: whatever is on disk is what a crash or an OOM kill leaves
  assert.equal(await closed, "SIGKILL", "killed before the sweep finished");
  const saved = entries(dir);
  assert.ok(saved >= 2 && saved < 12, `${saved} rows saved of 12`);

  const run = (cacheDir: string) => {
    const result = spawnSync(process.execPath, [bin, ...args, ...tail, "--workers", "0", "--cache-dir", cacheDir], {
      cwd: projectRoot,
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(result.stdout) as { rows: unknown[]; cached: number; computed: number };
  };
  const resumed = run(dir);
  assert.equal(resumed.cached, saved, "every row finished before the kill is read back");
  assert.equal(resumed.computed, 12 - saved, "and only the others are computed");
  assert.deepEqual(resumed.rows, run(tempDir()).rows);
});
