// One interpolation rule for every quantile seamlab reports: numpy's default (linear).

export function sortedNumbers(values: readonly number[]): Float64Array {
  const sorted = Float64Array.from(values);
  sorted.sort();
  return sorted;
}

export function quantileOfSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = (n - 1) * q;
  const lower = Math.floor(pos);
  const upper = Math.ceil(pos);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (pos - lower);
}

/** The central `level` percentile interval of ascending `sorted`. */
export function percentileInterval(sorted: ArrayLike<number>, level: number): { low: number; high: number } {
  const tail = (1 - level) / 2;
  return { low: quantileOfSorted(sorted, tail), high: quantileOfSorted(sorted, 1 - tail) };
}

export function quantile(values: readonly number[], q: number): number {
  return quantileOfSorted(sortedNumbers(values), q);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

export function distributionOf(values: readonly number[]) {
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
