import { seededRandom } from "../core/random";
import type { BootstrapOptions } from "./bootstrap";
import { percentileInterval } from "./quantiles";
import type { Interval } from "./types";

// Ratio statistics Σ_d y_d / Σ_d x_d over documents d. Seams of one document are not independent (its style
// decides many), so CIs resample whole documents (a cluster bootstrap, within strata when stratified).

const sum = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0);

/** Positions by stratum (first-seen order): corpus/sample draws within the groups this bootstrap resamples. */
export function positionsByStratum<K extends string | number>(
  n: number,
  strata: readonly K[] | undefined,
): Map<K | 0, number[]> {
  const groups = new Map<K | 0, number[]>();
  for (let i = 0; i < n; i++) {
    const key = strata ? strata[i] : 0;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(i);
  }
  return groups;
}

/** Percentile CI of Σy/Σx, resampling documents per stratum (keeping each stratum's size); NaN when Σx is 0. */
export function clusterRatioInterval(
  numerators: readonly number[],
  denominators: readonly number[],
  strata?: readonly (string | number)[],
  { seed = 1, resamples = 1000, level = 0.95 }: BootstrapOptions = {},
): Interval & { value: number } {
  const [sumY, sumX] = [sum(numerators), sum(denominators)];
  if (sumX === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN };
  const members = [...positionsByStratum(numerators.length, strata).values()];
  const random = seededRandom(seed);
  const values: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let y = 0;
    let x = 0;
    for (const list of members) {
      for (let j = 0; j < list.length; j++) {
        const pick = list[Math.floor(random() * list.length)];
        y += numerators[pick];
        x += denominators[pick];
      }
    }
    if (x > 0) values.push(y / x);
  }
  values.sort((a, b) => a - b);
  return { value: sumY / sumX, ...percentileInterval(values, level) };
}

/**
 * Documents for a 95% CI half-width `halfWidth` on Σy/Σx from a pilot, by the delta-method variance. No
 * finite-population correction (the CIs describe text like this corpus): callers cap it.
 */
export function clusterSampleSize(
  numerators: readonly number[],
  denominators: readonly number[],
  halfWidth: number,
  strata?: readonly (string | number)[],
  z = 1.959964,
): number {
  const n = numerators.length;
  const [sumY, sumX] = [sum(numerators), sum(denominators)];
  if (n < 2 || sumX === 0) return Math.max(n, 1);
  const ratio = sumY / sumX;
  const meanX = sumX / n;
  const residuals = numerators.map((y, i) => (y - ratio * denominators[i]) / meanX);
  // Pooled within-strata variance (n − H degrees of freedom); plain without strata or with too few per stratum.
  const groups = [...positionsByStratum(n, strata).values()].map((positions) => positions.map((i) => residuals[i]));
  const within = (lists: number[][]) => {
    let squares = 0;
    for (const list of lists) {
      const mean = sum(list) / list.length;
      for (const e of list) squares += (e - mean) ** 2;
    }
    return squares / (n - lists.length);
  };
  const stratified = strata !== undefined && n - groups.length >= n / 2;
  const variance = stratified ? within(groups) : within([residuals]);
  return Math.max(1, Math.ceil((z * z * variance) / (halfWidth * halfWidth)));
}
