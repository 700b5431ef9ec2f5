import { SeamlabError } from "../core/errors";
import { bootstrapMeanInterval, type BootstrapOptions } from "./bootstrap";
import { atLeastTango } from "./paired-score";

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

export type PairedComparison = ReturnType<typeof pairedComparison>;

/** Two configs on the same queries: wins = A hits and B misses, losses the reverse. */
export function pairedComparison(hitsA: readonly boolean[], hitsB: readonly boolean[], options: BootstrapOptions = {}) {
  if (hitsA.length !== hitsB.length) {
    throw new SeamlabError(
      `paired comparison needs the same queries on both sides, got ${hitsA.length} and ${hitsB.length}.`,
    );
  }
  const n = hitsA.length;
  const delta = hitsA.map((hit, i) => (hit ? 1 : 0) - (hitsB[i] ? 1 : 0));
  const wins = delta.filter((d) => d === 1).length;
  const losses = delta.filter((d) => d === -1).length;
  const [countA, countB] = [hitsA.filter(Boolean).length, hitsB.filter(Boolean).length];
  const bootstrap = bootstrapMeanInterval(delta, options);
  const level = options.level ?? 0.95;
  return {
    queries: n,
    wins,
    losses,
    ties: n - wins - losses,
    hitRateA: n === 0 ? 0 : countA / n,
    hitRateB: n === 0 ? 0 : countB / n,
    diff: n === 0 ? 0 : (countA - countB) / n,
    /** paired percentile bootstrap, widened to Tango's where that is wider */
    diffCI: n === 0 ? bootstrap : atLeastTango(bootstrap, wins, losses, n, level),
    level,
    mcnemarP: mcnemarExactP(wins, losses),
  };
}
