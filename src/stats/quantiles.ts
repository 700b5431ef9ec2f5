// Quantiles and the summary seamlab reports for every list of numbers: one interpolation rule (numpy's default).

/** Summary of a list of numbers: the quantiles seamlab reports everywhere. */
export interface Distribution {
  count: number;
  min: number;
  p10: number;
  median: number;
  mean: number;
  p90: number;
  max: number;
}

/** Numbers sorted ascending, as a new array (typed-array sort: numeric, fast, no comparator). */
export function sortedNumbers(values: readonly number[]): Float64Array {
  const sorted = Float64Array.from(values);
  sorted.sort();
  return sorted;
}

/** The q-quantile of ascending `sorted` by linear interpolation (numpy's default); NaN when empty. */
export function quantileOfSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = (n - 1) * q;
  const lower = Math.floor(pos);
  const upper = Math.ceil(pos);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (pos - lower);
}

/** The q-quantile (q in [0, 1]) of unsorted `values`; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  return quantileOfSorted(sortedNumbers(values), q);
}

/** The median of unsorted `values` (the mean of the middle two when their count is even); NaN when empty. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The arithmetic mean; NaN when empty. */
export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

/** count/min/p10/median/mean/p90/max of `values` (all NaN but count when empty). */
export function distributionOf(values: readonly number[]): Distribution {
  const sorted = sortedNumbers(values);
  const n = sorted.length;
  return {
    count: n,
    min: n ? sorted[0] : NaN,
    p10: quantileOfSorted(sorted, 0.1),
    median: quantileOfSorted(sorted, 0.5),
    mean: mean(sorted),
    p90: quantileOfSorted(sorted, 0.9),
    max: n ? sorted[n - 1] : NaN,
  };
}
