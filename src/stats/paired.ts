import { SeamlabError } from "../core/errors";
import { bootstrapIndexInterval, type BootstrapOptions } from "./bootstrap";
import { atLeastTango } from "./paired-score";
import type { Interval } from "./types";

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
  /**
   * 95% CI of diff: the percentile bootstrap resampling queries (pairs kept together), widened to Tango's score
   * interval where that is wider (see paired-score: the bootstrap alone is too narrow with few discordant queries)
   */
  diffCI: Interval;
  /** the CI's confidence level (what `shownDirection` tests McNemar's p against) */
  level: number;
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
  const bootstrap = bootstrapIndexInterval(
    n,
    (indices) => {
      let sum = 0;
      for (let i = 0; i < indices.length; i++) sum += delta[indices[i]];
      return sum / indices.length;
    },
    options,
  );
  const level = options.level ?? 0.95;
  return {
    queries: n,
    wins,
    losses,
    ties: n - wins - losses,
    hitRateA: n === 0 ? 0 : countA / n,
    hitRateB: n === 0 ? 0 : countB / n,
    diff: n === 0 ? 0 : (countA - countB) / n,
    diffCI: n === 0 ? bootstrap : atLeastTango(bootstrap, wins, losses, n, level),
    level,
    mcnemarP: mcnemarExactP(wins, losses),
  };
}
