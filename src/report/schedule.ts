// When the report's notebooks run: the order they start in, the threads each kernel may use, and what is left.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename } from "node:path";

/** How long a notebook took in an earlier report (its executed .ipynb's metadata), when there is one. */
export function previousDuration(path: string): number | undefined {
  try {
    const ms = JSON.parse(readFileSync(path, "utf8"))?.metadata?.seamlab?.duration_ms;
    return typeof ms === "number" && ms > 0 ? ms : undefined;
  } catch {
    return undefined;
  }
}

/** ETA from `--budget`'s estimates: what is left of the unfinished ones', `jobs` at a time; undefined without any. */
export function etaFromPlan(
  count: number,
  plannedMs: readonly (number | undefined)[],
  finished: ReadonlySet<number>,
  runningSince: ReadonlyMap<number, number>,
  now: number,
  jobs: number,
): number | undefined {
  if (!plannedMs.some((ms) => ms !== undefined)) return undefined;
  let left = 0;
  let unfinished = 0;
  for (let at = 0; at < count; at++) {
    if (finished.has(at)) continue;
    unfinished++;
    const since = runningSince.get(at);
    left += Math.max(0, (plannedMs[at] ?? 0) - (since === undefined ? 0 : now - since));
  }
  return left / Math.max(1, Math.min(jobs, unfinished));
}

/** Seconds of each default notebook on an idle 2-core machine: only their order matters (longest first). */
const typicalNotebookSeconds: Readonly<Record<string, number>> = {
  "01": 33,
  "02": 11,
  "03": 38,
  "04": 20,
  "05": 15,
  "06": 22,
  "07": 16,
};

/** Longest expected first (the earlier report's times when it has them all, else the typical ones), ties in order. */
export function longestFirst(paths: readonly string[], previousMs: readonly (number | undefined)[] = []): number[] {
  const useTimes = paths.length > 0 && paths.every((_, i) => previousMs[i] !== undefined);
  const expected = paths.map((path, i) =>
    useTimes ? previousMs[i]! : 1000 * (typicalNotebookSeconds[basename(path).slice(0, 2)] ?? 60),
  );
  return paths.map((_, i) => i).sort((a, b) => expected[b] - expected[a] || a - b);
}

export function workersPerKernel(jobs: number, cores: number = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / Math.max(1, jobs)));
}
