import { seededIndexFiller } from "../core/random";
import { percentileInterval } from "./quantiles";
import type { Interval } from "./types";

export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
  level?: number;
}

/** Percentile bootstrap CIs of statistics of the same resampled indices (so paired data stays paired). */
export function bootstrapIndexIntervals(
  n: number,
  statistics: readonly ((indices: Int32Array) => number)[],
  { seed = 1, resamples = 2000, level = 0.95 }: BootstrapOptions = {},
): Interval[] {
  if (n === 0) return statistics.map(() => ({ low: Number.NaN, high: Number.NaN }));
  const fill = seededIndexFiller(seed);
  const values = statistics.map(() => new Float64Array(resamples));
  const indices = new Int32Array(n);
  for (let r = 0; r < resamples; r++) {
    fill(indices, n);
    for (let j = 0; j < statistics.length; j++) values[j][r] = statistics[j](indices);
  }
  return values.map((sorted) => percentileInterval(sorted.sort(), level));
}

export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions = {}): Interval {
  return bootstrapMeanIntervals([values], options)[0];
}

export function bootstrapMeanIntervals(
  columns: readonly (readonly number[])[],
  options: BootstrapOptions = {},
): Interval[] {
  const n = columns.length === 0 ? 0 : columns[0].length;
  if (columns.some((column) => column.length !== n))
    throw new Error(`bootstrapMeanIntervals: columns of ${columns.map((c) => c.length).join(", ")} values`);
  const means = columns.map((column) => {
    const values = Float64Array.from(column);
    return (indices: Int32Array) => {
      let sum = 0;
      for (let i = 0; i < indices.length; i++) sum += values[indices[i]];
      return sum / indices.length;
    };
  });
  return bootstrapIndexIntervals(n, means, options);
}
