// The budget pilot's clock: CPU time, so that what a budget schedules does not depend on who else uses the machine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpuNow } from "../../src/cli/report-pilot";

test("the pilot's clock counts this process's CPU time, not time spent waiting", async () => {
  const idle = cpuNow();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const waited = cpuNow() - idle;
  assert.ok(waited < 150, `a 300 ms wait counted ${waited.toFixed(0)} ms`);
  // work is counted (however busy the machine: the loop runs until 100 ms of CPU are seen, or fails after 10 s)
  const busy = cpuNow();
  const deadline = performance.now() + 10_000;
  while (cpuNow() - busy < 100) assert.ok(performance.now() < deadline, "10 s of work counted under 100 ms");
});
