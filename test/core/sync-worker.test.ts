import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSyncWorker } from "../../src/core/sync-worker";

// A worker that doubles a number, and never answers a negative one.
const doubler = `
const { workerData } = require("node:worker_threads");
const { port, flag, offset } = workerData;
port.on("message", (n) => {
  if (n < 0) return;
  port.postMessage(n * 2 + offset);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

test("a sync worker answers each call in order, blocking until it does, and says undefined past the deadline", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-sync-worker-"));
  writeFileSync(join(dir, "doubler.cjs"), doubler);
  const worker = startSyncWorker("doubler", join(dir, "doubler.cjs"), { offset: 1 });
  try {
    assert.deepEqual(worker.call(20, 10_000), { reply: 41 });
    assert.deepEqual(worker.call(3, 10_000), { reply: 7 });
    const started = Date.now();
    assert.equal(worker.call(-1, 200), undefined);
    assert.ok(Date.now() - started >= 190, "it waited out the deadline");
  } finally {
    worker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
