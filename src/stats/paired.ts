import { SeamlabError } from "../core/errors";
import { bootstrapIndexInterval, type BootstrapOptions } from "./bootstrap";
import { atLeastTango } from "./paired-score";
import type { Interval } from "./types";

/** Exact two-sided McNemar: p = min(1, 2·P[X <= min(b,c)]), X ~ Binomial(b+c, 1/2), in log space (no underflow). */
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

/** Two configs on the same queries: wins = A hits and B misses, losses the reverse. */
export interface PairedComparison {
  queries: number;
  wins: number;
  losses: number;
  ties: number;
  hitRateA: number;
  hitRateB: number;
  /** hitRateA − hitRateB */
  diff: number;
  /** paired percentile bootstrap, widened to Tango's where that is wider */
  diffCI: Interval;
  level: number;
  mcnemarP: number;
}

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
