import { test } from "node:test";
import assert from "node:assert/strict";
import { osThreadId, processThreadTimes, threadCpuMs, uptimeMs } from "../../src/experiment/thread-times";

const linux = process.platform === "linux";

test(
  "thread-times: this thread is listed under its kernel id, and its time on a core grows with work",
  { skip: !linux },
  () => {
    const tid = osThreadId();
    assert.equal(tid, process.pid, "the main thread's kernel id is the process id");
    const before = processThreadTimes().get(tid as number);
    const cpu0 = threadCpuMs() as number;
    // Work until /proc/thread-self/stat says this thread used 100 ms (on a loaded machine that takes longer than
    // 100 ms of wall time), then the scheduler's own count must have grown by about as much.
    const t0 = performance.now();
    let x = 0;
    while ((threadCpuMs() as number) - cpu0 < 100 && performance.now() - t0 < 20_000)
      for (let i = 0; i < 100_000; i++) x += Math.sqrt(x + 1);
    assert.ok(x > 0);
    const after = processThreadTimes().get(tid as number);
    assert.ok(before && after);
    assert.ok((threadCpuMs() as number) - cpu0 >= 100, "the loop ran 100 ms of CPU");
    assert.ok(after.cpuMs - before.cpuMs >= 80, `on a core ${after.cpuMs - before.cpuMs} ms for 100 ms of thread CPU`);
    assert.ok(after.startedMs <= (uptimeMs() as number));
  },
);
