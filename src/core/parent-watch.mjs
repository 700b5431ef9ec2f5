// Stopping a process once the process that started it is gone: seamlab itself (bin/seamlab.js) and every tslab
// kernel it starts (report/kernel-watchdog.mjs). Plain JavaScript: both run it before any TypeScript loader.
import { Worker } from "node:worker_threads";
import { processAlive } from "./process-alive.cjs";

/**
 * Stops this process once `parent` is gone: it died, or this process was handed to another parent (a parent killed
 * with SIGKILL cannot pass anything on; its children are reparented). The check runs every `intervalMs` in a worker
 * thread, so it fires even while the main thread is blocked. It sends `signal`, then SIGKILL after `graceMs` if the
 * process is still running (a handler on a blocked main thread never runs). A parent already gone at start is a
 * stale id passed down from elsewhere: nothing is watched and false is returned.
 */
export function watchParent({ parent = process.ppid, signal = "SIGKILL", graceMs = 3000, intervalMs = 250 } = {}) {
  if (!(parent > 1) || !processAlive(parent)) return false;
  const code = `
    const parent = ${parent};
    const startParent = ${process.ppid};
    const processAlive = ${processAlive};
    const timer = setInterval(() => {
      if (process.ppid === startParent && processAlive(parent)) return;
      clearInterval(timer);
      process.kill(process.pid, ${JSON.stringify(signal)});
      setTimeout(() => process.kill(process.pid, "SIGKILL"), ${graceMs});
    }, ${intervalMs});
  `;
  const worker = new Worker(code, { eval: true, stdout: false, stderr: false });
  worker.unref();
  return true;
}
