// Linear-time checks that timing noise cannot break. A test does not assert how fast something is (that is a
// benchmark's job, see bench/); it asserts how cost grows with input size. Cost is this process's CPU time, compared
// between two input sizes: five times the input costs about five times as much when linear and twenty-five times as
// much when quadratic. Noise only ever adds time (another process on the same core, a garbage collection that the
// run before left behind), so each size keeps its least disturbed run, the minimum; and the small and large runs
// alternate, so a busy minute on a shared machine falls on both sizes, not on one.
import assert from "node:assert/strict";

function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The least CPU milliseconds (user + system) of `runs` calls of `small` and of `large`, called alternately. */
export function minCpuMs(small: () => void, large: () => void, runs = 5): { smallMs: number; largeMs: number } {
  let smallMs = Infinity;
  let largeMs = Infinity;
  for (let i = 0; i < runs; i++) {
    smallMs = Math.min(smallMs, cpuMs(small));
    largeMs = Math.min(largeMs, cpuMs(large));
  }
  return { smallMs, largeMs };
}

/**
 * Asserts that running `work` on an input `factor` times larger costs less than `factor * slack` times as much
 * (linear stays near `factor`, quadratic reaches `factor` squared). `floorMs` keeps sub-millisecond timings of the
 * small input, which are mostly timer resolution, from making the ratio meaningless.
 */
export function assertScalesLinearly(
  label: string,
  small: () => void,
  large: () => void,
  options: { factor: number; slack?: number; floorMs?: number },
): { smallMs: number; largeMs: number } {
  const { factor, slack = 2.4, floorMs = 20 } = options;
  small(); // warm-up: JIT and lazily loaded tables
  const { smallMs, largeMs } = minCpuMs(small, large);
  const ratio = largeMs / Math.max(smallMs, floorMs);
  assert.ok(
    ratio < factor * slack,
    `${label}: ${factor}x the input took ${ratio.toFixed(1)}x the CPU time (${smallMs.toFixed(0)} ms -> ` +
      `${largeMs.toFixed(0)} ms, the least of alternating runs); linear would be about ${factor}x, quadratic ` +
      `${factor * factor}x`,
  );
  return { smallMs, largeMs };
}
