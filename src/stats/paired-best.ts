import { SeamlabError } from "../core/errors";
import { seededIndexFiller } from "../core/random";
import type { BootstrapOptions } from "./bootstrap";
import { mcnemarExactP } from "./paired";
import { atLeastTango, tangoInterval } from "./paired-score";
import { percentileInterval, quantileOfSorted } from "./quantiles";

// Every config against the best and a baseline, on the same queries (resampled whole, so comparisons stay paired).
// The best is picked from the same data, so it is biased upward: each replicate re-picks it, as a reader would.

/** One config's per-query outcomes: 1 hit, 0 miss (the same query order for every config). */
export type Outcomes = Uint8Array | readonly number[];

export interface PairedBestOptions extends BootstrapOptions {
  baseline?: number;
}

/** A difference (0.02 = 2 points) with its CI, never narrower than Tango's, and McNemar's exact p. */
export type PairedDifference = ReturnType<typeof pairedAgainstBest>["configs"][number]["fromBest"];

/** What `upperFromBest` re-reads: each config's rate per replicate (same draws for all), and the outcomes. */
interface Replicates {
  rates: Float64Array[];
  outcomes: readonly Outcomes[];
}

/** Queries by outcome pattern across configs: far fewer patterns than queries, so a replicate is O(n + patterns·K). */
function compress(outcomes: readonly Outcomes[], n: number) {
  const K = outcomes.length;
  const index = new Map<string, number>();
  const of = new Uint32Array(n);
  const bits: number[] = [];
  for (let q = 0; q < n; q++) {
    let key = "";
    for (let k = 0; k < K; k++) key += outcomes[k][q] ? "1" : "0";
    let p = index.get(key);
    if (p === undefined) {
      p = index.size;
      index.set(key, p);
      for (let k = 0; k < K; k++) bits.push(outcomes[k][q] ? 1 : 0);
    }
    of[q] = p;
  }
  // bits[p * K + k]: outcome of config k under pattern p
  return { of, bits: Uint8Array.from(bits), count: index.size };
}

function checkOutcomes(outcomes: readonly Outcomes[]): number {
  if (outcomes.length === 0) throw new SeamlabError("paired comparison: no configs to compare.");
  const n = outcomes[0].length;
  const k = outcomes.findIndex((o) => o.length !== n);
  if (k >= 0) {
    throw new SeamlabError(
      `paired comparison: config ${k} has ${outcomes[k].length} query outcomes but config 0 has ${n}; every config ` +
        `must run on the same queries.`,
    );
  }
  return n;
}

function hitCount(o: Outcomes): number {
  let h = 0;
  for (let q = 0; q < o.length; q++) if (o[q]) h++;
  return h;
}

function discordant(a: Outcomes, b: Outcomes): { wins: number; losses: number } {
  let wins = 0;
  let losses = 0;
  for (let q = 0; q < a.length; q++) {
    if (a[q] && !b[q]) wins++;
    else if (!a[q] && b[q]) losses++;
  }
  return { wins, losses };
}

export function pairedAgainstBest(outcomes: readonly Outcomes[], options: PairedBestOptions = {}) {
  const n = checkOutcomes(outcomes);
  const K = outcomes.length;
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  const baseline = options.baseline ?? 0;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new SeamlabError(`resamples must be a whole number >= 1, got ${resamples}.`);
  if (!(level > 0 && level < 1)) throw new SeamlabError(`level must be between 0 and 1, got ${level}.`);
  if (!Number.isInteger(baseline) || baseline < 0 || baseline >= K)
    throw new SeamlabError(`baseline must index one of the ${K} configs, got ${baseline}.`);
  if (n === 0) throw new SeamlabError("paired comparison: there are no queries.");

  const hits = outcomes.map(hitCount);
  let best = 0;
  for (let k = 1; k < K; k++) if (hits[k] > hits[best]) best = k;

  const patterns = compress(outcomes, n);
  const fill = seededIndexFiller(options.seed ?? 1);
  const drawn = new Int32Array(n);
  const rates = Array.from({ length: K }, () => new Float64Array(resamples));
  const counts = new Uint32Array(patterns.count);
  const drawnHits = new Float64Array(K);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    fill(drawn, n);
    for (let i = 0; i < n; i++) counts[patterns.of[drawn[i]]]++;
    drawnHits.fill(0);
    for (let p = 0; p < patterns.count; p++) {
      const c = counts[p];
      if (c === 0) continue;
      const base = p * K;
      for (let k = 0; k < K; k++) if (patterns.bits[base + k]) drawnHits[k] += c;
    }
    for (let k = 0; k < K; k++) rates[k][r] = drawnHits[k] / n;
  }
  // the CI of (rate of `to` − rate of `from`) over the replicates
  const interval = (to: Float64Array, from: Float64Array) =>
    percentileInterval(to.map((rate, r) => rate - from[r]).sort(), level);
  const replicates: Replicates = { rates, outcomes };
  const all = outcomes.map((_, k) => k);
  const configs = outcomes.map((o, k) => {
    const vsBest = discordant(outcomes[best], o);
    const vsBase = discordant(o, outcomes[baseline]);
    const observedLow = interval(rates[best], rates[k]).low;
    const bootstrapFromBaseline = interval(rates[k], rates[baseline]);
    return {
      rate: hits[k] / n,
      hits: hits[k],
      // best − this config. The lower bound is the plain paired one against the observed best: a re-picked best's
      // difference is never below 0 and would call every config of a flat curve worse.
      fromBest: {
        diff: (hits[best] - hits[k]) / n,
        low: k === best ? observedLow : Math.min(observedLow, tangoInterval(vsBest.wins, vsBest.losses, n, level).low),
        high: upperFromBest({ queries: n, level, replicates }, k, all),
        ...vsBest,
        mcnemarP: mcnemarExactP(vsBest.wins, vsBest.losses),
      },
      fromBaseline: {
        diff: (hits[k] - hits[baseline]) / n,
        ...(k === baseline
          ? bootstrapFromBaseline
          : atLeastTango(bootstrapFromBaseline, vsBase.wins, vsBase.losses, n, level)),
        ...vsBase,
        mcnemarP: mcnemarExactP(vsBase.wins, vsBase.losses),
      },
    };
  });
  return { queries: n, best, baseline, level, resamples, configs, replicates };
}

// The upper bound of (best − k), the best any config of `within`: never below Tango's against any config there with
// at least k's hits. Both parts only grow with `within`: the property the verdict's subset invariant rests on.
export function upperFromBest(
  result: { queries: number; level: number; replicates: Replicates },
  k: number,
  within: readonly number[],
): number {
  const { rates, outcomes } = result.replicates;
  const own = rates[k];
  const gaps = new Float64Array(own.length);
  for (let r = 0; r < own.length; r++) {
    let max = own[r];
    for (const s of within) if (rates[s][r] > max) max = rates[s][r];
    gaps[r] = max - own[r];
  }
  gaps.sort();
  let high = quantileOfSorted(gaps, 1 - (1 - result.level) / 2);
  const hitsK = hitCount(outcomes[k]);
  for (const b of within) {
    // Ties count too: resamples of identical outcomes all say 0, while Tango says how far apart the two can still be.
    if (b === k || hitCount(outcomes[b]) < hitsK) continue;
    const d = discordant(outcomes[b], outcomes[k]);
    high = Math.max(high, tangoInterval(d.wins, d.losses, result.queries, result.level).high);
  }
  return high;
}
