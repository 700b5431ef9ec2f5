// Process probes for tests that kill a parent and check its kernels die with it (Linux /proc).
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** tslab kernels started by `parent`: processes whose parent it is and whose command line runs tslab. */
export function kernelsOf(parent: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (ppid === parent && /[\\/]tslab\0kernel\0/.test(cmdline)) found.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Whether `pid` is running (a zombie is not). */
export const alive = (pid: number): boolean =>
  existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));

/** Polls `probe` every 100 ms until it returns a value; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
