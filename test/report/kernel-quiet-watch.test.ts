// tslab breaks for good ("Unexpected pending rebuildTimer") when TypeScript's directory watcher fires between two
// cells: TypeScript watches src/ and node_modules/ for files that could satisfy a failed module lookup. seamlab
// starts its kernels with directory watching off (src/report/kernel-quiet-watch.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { spawnSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { TslabKernel } from "../../src/report/kernel";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

test("a JSON file appearing in the project folder between cells does not break the next cell", async () => {
  const kernel = await TslabKernel.start(root);
  kernel.useSources(join(root, "src"));
  const probe = join(root, "src", `seamlab-watch-probe-${process.pid}.json`);
  try {
    const first = await kernel.execute(
      `import { loadRetrievalInputs } from "./src/study/inputs"; typeof loadRetrievalInputs`,
      120_000,
    );
    assert.equal(first.status, "ok");
    writeFileSync(probe, "{}");
    await sleep(1500);
    const second = await kernel.execute(`const after = 6 * 7; after`, 60_000);
    const text = JSON.stringify(second.messages.map((message) => message.content));
    assert.equal(second.status, "ok", text);
    assert.match(text, /42/);
  } finally {
    rmSync(probe, { force: true });
    await kernel.shutdown();
  }
});

test("the kernel preloads act in the kernel's main thread only, not in the worker threads its cells start", () => {
  const preload = (name: string) => pathToFileURL(join(root, "src", "report", name)).href;
  const dir = mkdtempSync(join(tmpdir(), "seamlab-preload-"));
  try {
    // A worker started from a file runs the --import preloads first (one started from a string does not).
    const loaded = 'Object.keys(require.cache).some((p) => p.includes("typescript-for-tslab"))';
    const worker = join(dir, "worker.cjs");
    writeFileSync(worker, `require("node:worker_threads").parentPort.postMessage(${loaded});\n`);
    const probe =
      `const { Worker } = require("node:worker_threads");` +
      `new Worker(${JSON.stringify(worker)}).once("message", (inWorker) => {` +
      `console.log(JSON.stringify({ main: ${loaded}, worker: inWorker })); process.exit(0); });`;
    const run = spawnSync(
      process.execPath,
      ["--import", preload("kernel-watchdog.mjs"), "--import", preload("kernel-quiet-watch.mjs"), "-e", probe],
      { cwd: root, encoding: "utf8", env: { ...process.env, SEAMLAB_KERNEL_PARENT: String(process.pid) } },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { main: true, worker: false });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
