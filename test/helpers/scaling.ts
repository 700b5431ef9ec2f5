// Linear-time checks that timing noise cannot break. A test does not assert how fast something is (that is a
// benchmark's job, see bench/); it asserts how cost grows with input size. Cost is this process's CPU time, which
// other processes on a shared machine barely move, the median of a few runs, compared between two input sizes:
// five times the input costs about five times as much when linear and twenty-five times as much when quadratic.
import assert from "node:assert/strict";
import { median } from "../../src/stats/quantiles";

/** Median CPU milliseconds (user + system) of `runs` calls of `work`. */
export function medianCpuMs(work: () => void, runs = 3): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return median(times);
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
  const smallMs = medianCpuMs(small);
  const largeMs = medianCpuMs(large);
  const ratio = largeMs / Math.max(smallMs, floorMs);
  assert.ok(
    ratio < factor * slack,
    `${label}: ${factor}x the input took ${ratio.toFixed(1)}x the CPU time (${smallMs.toFixed(0)} ms -> ` +
      `${largeMs.toFixed(0)} ms); linear would be about ${factor}x, quadratic ${factor * factor}x`,
  );
  return { smallMs, largeMs };
}
