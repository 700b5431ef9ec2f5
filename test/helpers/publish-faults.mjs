// Fault injection for `seamlab report`'s publish, kept out of seamlab itself: a test starts seamlab with this file
// preloaded (`publishFaultEnv` in publish-faults.ts puts `--import` of it into NODE_OPTIONS), and it listens on the
// diagnostics channel on which src/report/publish.ts names each step of a publish as it is reached.
//   SEAMLAB_REPORT_STEP_DELAY_MS=N  block the main thread N ms at every step (as a slow disk would), so that kills
//                                   land inside the swap
//   SEAMLAB_REPORT_FAULT=<step>     SIGKILL the process right after that step
import { subscribe } from "node:diagnostics_channel";

export const PUBLISH_STEP_CHANNEL = "seamlab:report-publish-step";

subscribe(PUBLISH_STEP_CHANNEL, (step) => {
  const delay = Number(process.env.SEAMLAB_REPORT_STEP_DELAY_MS ?? 0);
  if (delay > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);
  if (process.env.SEAMLAB_REPORT_FAULT === step) process.kill(process.pid, "SIGKILL");
});
