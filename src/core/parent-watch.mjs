// Plain JavaScript: bin/seamlab.js and report/kernel-watchdog.mjs run it before any TypeScript loader.
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
 * Stops this process once `parent` died or this process was reparented (a parent killed with SIGKILL passes nothing
 * on); a shell parent (`npx` runs commands through `sh -c`, which outlives a killed `npx`) being reparented counts
 * too. A worker thread checks every `intervalMs`, so it fires while the main thread is blocked: `message` to stderr,
 * `signal`, then SIGKILL after `graceMs`. A parent already gone is a stale id: nothing is watched, false returned.
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
