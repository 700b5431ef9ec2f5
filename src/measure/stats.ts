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

/** One histogram bin over `(from, to]` (the zero bin is `[0, 0]`). */
export interface HistogramBin {
  label: string;
  from: number;
  to: number;
  count: number;
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

/**
 * Overlap histogram against the nominal budget: a bin for exactly 0, `bins` equal bins over
 * `(0, nominal]`, and one bin for anything above nominal (tail stitching can exceed it).
 */
export function overlapHistogram(values: readonly number[], nominal: number, bins = 10): HistogramBin[] {
  const edges: number[] = [0];
  if (nominal > 0) for (let i = 1; i <= bins; i++) edges.push((nominal * i) / bins);
  const out: HistogramBin[] = [{ label: "0", from: 0, to: 0, count: 0 }];
  for (let i = 1; i < edges.length; i++) {
    const from = edges[i - 1];
    const to = edges[i];
    out.push({ label: `${formatEdge(from)}-${formatEdge(to)}`, from, to, count: 0 });
  }
  const top = edges[edges.length - 1];
  out.push({ label: `>${formatEdge(top)}`, from: top, to: Infinity, count: 0 });
  for (const value of values) {
    if (value <= 0) out[0].count++;
    else if (value > top) out[out.length - 1].count++;
    else out[Math.min(edges.length - 1, Math.max(1, Math.ceil((value * (edges.length - 1)) / top)))].count++;
  }
  return out;
}

function formatEdge(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** 100 * part / whole, or 0 when whole is 0 (an empty corpus has no zero seams, not NaN of them). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : (100 * part) / whole;
}
