// Whole-process timing for the benches that run seamlab as a user does (bench:report, bench:sweep-warm,
// bench:startup): the command under /usr/bin/time, which reports what Node cannot see of a child, its CPU seconds
// (user + system) and peak resident memory, beside the wall seconds.
import { spawnSync, type SpawnSyncOptions, type SpawnSyncReturns } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ProcessTime {
  /** Wall seconds. */
  wall: number;
  /** CPU seconds, user + system, the process and the children it waited for. */
  cpu: number;
  /** Peak resident memory of the process (not its children), MB. */
  peakMb: number;
}

let runs = 0;

/** Runs `command` (program and arguments) to its end under /usr/bin/time; `run` is spawnSync's own result. */
export function timeProcess(
  command: readonly string[],
  options: SpawnSyncOptions = {},
): { time: ProcessTime; run: SpawnSyncReturns<string | Buffer> } {
  const stats = join(tmpdir(), `seamlab-bench-time-${process.pid}-${runs++}.txt`);
  try {
    const run = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", "-o", stats, ...command], options);
    if (run.error) throw new Error(`/usr/bin/time ${command.join(" ")}: ${run.error.message}`);
    // The last line holds the figures (a failing command's status line comes before them).
    const [wall, user, system, kb] = readFileSync(stats, "utf8").trim().split(/\s+/).slice(-4).map(Number);
    return { time: { wall, cpu: user + system, peakMb: kb / 1024 }, run };
  } finally {
    rmSync(stats, { force: true });
  }
}
