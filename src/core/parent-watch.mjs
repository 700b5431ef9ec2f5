// Stopping a process once the process that started it is gone: seamlab itself (bin/seamlab.js) and every tslab
// kernel it starts (report/kernel-watchdog.mjs). Plain JavaScript: both run it before any TypeScript loader.
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { processAlive } from "./process-alive.cjs";

/** The parent of `pid` (Linux /proc), or undefined when it cannot be read. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** True when `pid` runs a POSIX shell (Linux /proc): `npx` and `npm run` start a command through `sh -c`. */
function isShell(pid) {
  try {
    return /^(sh|dash|bash|zsh|ksh|mksh|ash|busybox)$/.test(readFileSync(`/proc/${pid}/comm`, "utf8").trim());
  } catch {
    return false;
  }
}

/**
 * Stops this process once `parent` is gone: it died, or this process was handed to another parent (a parent killed
 * with SIGKILL cannot pass anything on; its children are reparented). When the parent is a shell (`npx` runs a
 * package's command through `sh -c`, which outlives a killed `npx` while it waits for its child), the shell being
 * handed to another parent counts as gone too. The check runs every `intervalMs` in a worker thread, so it fires even
 * while the main thread is blocked. It writes `message` (if any) to stderr, sends `signal`, then SIGKILL after
 * `graceMs` if the process still runs (a handler on a blocked main thread never runs). A parent already gone at start
 * is a stale id passed down from elsewhere: nothing is watched and false is returned.
 */
export function watchParent({
  parent = process.ppid,
  signal = "SIGKILL",
  graceMs = 3000,
  intervalMs = 250,
  message,
} = {}) {
  if (!(parent > 1) || !processAlive(parent)) return false;
  const grandparent = parent === process.ppid && isShell(parent) ? parentOf(parent) : undefined;
  const code = `
    const parent = ${parent};
    const startParent = ${process.ppid};
    const grandparent = ${grandparent ?? "undefined"};
    const processAlive = ${processAlive};
    const parentOf = ${parentOf};
    const message = ${JSON.stringify(message ?? "")};
    let readFileSync;
    import("node:fs").then((fs) => {
      readFileSync = fs.readFileSync;
      const timer = setInterval(() => {
        if (process.ppid === startParent && processAlive(parent) &&
            (grandparent === undefined || parentOf(parent) === grandparent)) return;
        clearInterval(timer);
        try {
          if (message) fs.writeSync(2, message);
        } catch {
          // nobody reads stderr any more
        }
        process.kill(process.pid, ${JSON.stringify(signal)});
        setTimeout(() => process.kill(process.pid, "SIGKILL"), ${graceMs});
      }, ${intervalMs});
    });
  `;
  const worker = new Worker(code, { eval: true, stdout: false, stderr: false });
  worker.unref();
  return true;
}
