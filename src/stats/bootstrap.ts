import { seededIndexFiller } from "../core/random";
import { percentileInterval } from "./quantiles";
import { resampledMeansKernel } from "./resample-means";
import type { Interval } from "./types";

export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
  level?: number;
}

export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions = {}): Interval {
  return bootstrapMeanIntervals([values], options)[0];
}

/** Percentile bootstrap CIs of each column's mean, all from the same resampled indices (so paired data stays paired). */
export function bootstrapMeanIntervals(
  columns: readonly (readonly number[])[],
  { seed = 1, resamples = 2000, level = 0.95 }: BootstrapOptions = {},
): Interval[] {
  const n = columns.length === 0 ? 0 : columns[0].length;
  if (columns.some((column) => column.length !== n))
    throw new Error(`bootstrapMeanIntervals: columns of ${columns.map((c) => c.length).join(", ")} values`);
  if (n === 0) return columns.map(() => ({ low: Number.NaN, high: Number.NaN }));
  const data = columns.map((column) => Float64Array.from(column));
  const means = resampledMeansKernel()?.(data, n, resamples, seed) ?? resampledMeans(data, n, resamples, seed);
  return means.map((sorted) => percentileInterval(sorted.sort(), level));
}

/** Each column's mean over `resamples` seeded resamples (resample-means.ts runs the same adds in WebAssembly). */
function resampledMeans(data: readonly Float64Array[], n: number, resamples: number, seed: number): Float64Array[] {
  const fill = seededIndexFiller(seed);
  const means = data.map(() => new Float64Array(resamples));
  const indices = new Int32Array(n);
  for (let r = 0; r < resamples; r++) {
    fill(indices, n);
    data.forEach((values, j) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += values[indices[i]];
      means[j][r] = sum / n;
    });
  }
  return means;
}
