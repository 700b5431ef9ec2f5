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
    const t0 = performance.now();
    let x = 0;
    while (performance.now() - t0 < 200) x += Math.sqrt(x + 1);
    assert.ok(x > 0);
    const after = processThreadTimes().get(tid as number);
    assert.ok(before && after);
    assert.ok(after.cpuMs - before.cpuMs >= 50, `on a core ${after.cpuMs - before.cpuMs} ms during a 200 ms loop`);
    assert.ok((threadCpuMs() as number) - cpu0 >= 50);
    assert.ok(after.startedMs <= (uptimeMs() as number));
  },
);
