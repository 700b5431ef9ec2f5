import { SeamlabError } from "../core/errors";
import { seededRandom } from "../core/random";

/** A two-sided confidence interval. */
export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval (the 0.975 normal quantile). */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval for a binomial proportion (95% by default). Better than the normal
 * approximation near 0 and 1 and for small n. n = 0 gives the uninformative [0, 1].
 */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || n < 0 || successes > n) {
    throw new SeamlabError(`wilsonInterval needs whole numbers 0 <= successes <= n, got ${successes}/${n}.`);
  }
  if (n === 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const margin = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Clamp rounding noise so 0/n starts exactly at 0 and n/n ends exactly at 1.
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - margin),
    high: successes === n ? 1 : Math.min(1, centre + margin),
  };
}

export interface BootstrapOptions {
  /** Seed of the resampling generator (same seed => same interval). */
  seed?: number;
  resamples?: number;
  /** Confidence level, 0.95 by default. */
  level?: number;
}

function percentile(sorted: Float64Array, q: number): number {
  // Linear interpolation between order statistics (type 7, numpy's default).
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/**
 * Percentile bootstrap CI of a statistic over items resampled with replacement. `statistic` receives the
 * resampled indices (so paired data stays paired). Deterministic for a given seed.
 */
export function bootstrapIndexInterval(
  n: number,
  statistic: (indices: Int32Array) => number,
  { seed = 1, resamples = 2000, level = 0.95 }: BootstrapOptions = {},
): Interval {
  if (n === 0) return { low: Number.NaN, high: Number.NaN };
  const random = seededRandom(seed);
  const values = new Float64Array(resamples);
  const indices = new Int32Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) indices[i] = Math.floor(random() * n);
    values[r] = statistic(indices);
  }
  values.sort();
  const tail = (1 - level) / 2;
  return { low: percentile(values, tail), high: percentile(values, 1 - tail) };
}

/** Percentile bootstrap CI of the mean of `values`. */
export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions = {}): Interval {
  return bootstrapIndexInterval(
    values.length,
    (indices) => {
      let sum = 0;
      for (let i = 0; i < indices.length; i++) sum += values[indices[i]];
      return sum / indices.length;
    },
    options,
  );
}

/**
 * Exact (binomial) McNemar test, two-sided: with b and c the discordant counts, under H0 each discordant
 * pair goes either way with probability 1/2, so p = min(1, 2·P[X <= min(b,c)]), X ~ Binomial(b+c, 1/2).
 * Computed in log space so large counts do not underflow.
 */
export function mcnemarExactP(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new SeamlabError(`mcnemarExactP needs whole discordant counts, got b=${b}, c=${c}.`);
  }
  const n = b + c;
  if (n === 0) return 1;
  const smaller = Math.min(b, c);
  const logHalfToN = -n * Math.LN2;
  let logChoose = 0;
  let tail = 0;
  for (let i = 0; i <= smaller; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logChoose + logHalfToN);
  }
  return Math.min(1, 2 * tail);
}

/** The paired comparison of two configs on the same queries (hit or miss per query). */
export interface PairedComparison {
  queries: number;
  /** queries A hits and B misses */
  wins: number;
  /** queries B hits and A misses */
  losses: number;
  /** queries both hit or both miss */
  ties: number;
  hitRateA: number;
  hitRateB: number;
  /** hitRateA − hitRateB (positive: A better) */
  diff: number;
  /** percentile bootstrap 95% CI of diff, resampling queries (pairs kept together) */
  diffCI: Interval;
  /** exact McNemar two-sided p-value on wins vs losses */
  mcnemarP: number;
}

/** Compares per-query hits of config A and config B (same query order). */
export function pairedComparison(
  hitsA: readonly boolean[],
  hitsB: readonly boolean[],
  options: BootstrapOptions = {},
): PairedComparison {
  if (hitsA.length !== hitsB.length) {
    throw new SeamlabError(
      `paired comparison needs the same queries on both sides, got ${hitsA.length} and ${hitsB.length}.`,
    );
  }
  const n = hitsA.length;
  let wins = 0;
  let losses = 0;
  let countA = 0;
  let countB = 0;
  const delta = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (hitsA[i]) countA++;
    if (hitsB[i]) countB++;
    if (hitsA[i] && !hitsB[i]) wins++;
    if (!hitsA[i] && hitsB[i]) losses++;
    delta[i] = (hitsA[i] ? 1 : 0) - (hitsB[i] ? 1 : 0);
  }
  const diffCI = bootstrapIndexInterval(
    n,
    (indices) => {
      let sum = 0;
      for (let i = 0; i < indices.length; i++) sum += delta[indices[i]];
      return sum / indices.length;
    },
    options,
  );
  return {
    queries: n,
    wins,
    losses,
    ties: n - wins - losses,
    hitRateA: n === 0 ? 0 : countA / n,
    hitRateB: n === 0 ? 0 : countB / n,
    diff: n === 0 ? 0 : (countA - countB) / n,
    diffCI,
    mcnemarP: mcnemarExactP(wins, losses),
  };
}
