import { SeamlabError } from "../core/errors";
import type { Interval } from "./types";

// The floor under every paired CI of a hit-rate difference. The percentile bootstrap sees only the discordant queries
// it was given: with 4 of 76 discordant it excludes 0 though exact McNemar gives p = 0.125, and with none it is [0, 0].
// Tango's score interval (Tango 1998; recommended by Fagerland, Lydersen & Laake 2014) keeps its coverage there, so
// the CI is the union of the two (the bootstrap carries the best re-picked per replicate).

/** Two-sided z of a confidence level (0.95 -> 1.95996...), by Acklam's rational approximation (|error| < 1.2e-9). */
export function zOfLevel(level: number): number {
  if (!(level > 0 && level < 1)) throw new SeamlabError(`level must be between 0 and 1, got ${level}.`);
  return normalQuantile(1 - (1 - level) / 2);
}

function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/** Tango's score statistic for H0: (b − c)/n = delta (the closed form, as Fagerland et al. write it). */
function tangoStatistic(b: number, c: number, n: number, delta: number): number {
  const A = 2 * n;
  const B = -b - c + (2 * n - b + c) * delta;
  const C = -c * delta * (1 - delta);
  const q21 = (Math.sqrt(Math.max(0, B * B - 4 * A * C)) - B) / (2 * A);
  return (b - c - n * delta) / Math.sqrt(n * (2 * q21 + delta * (1 - delta)));
}

function crossing(f: (delta: number) => number, target: number, low: number, high: number): number {
  for (let i = 0; i < 200 && high - low > 1e-13; i++) {
    const mid = (low + high) / 2;
    if (f(mid) > target) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** Tango's score CI of (b − c)/n for b, c discordant pairs of n: b = 6, c = 16, n = 161 gives [−0.1240, −0.0054]. */
export function tangoInterval(b: number, c: number, n: number, level = 0.95): Interval {
  if (![b, c, n].every(Number.isInteger) || b < 0 || c < 0 || b + c > n || n < 1) {
    throw new SeamlabError(
      `tangoInterval needs whole discordant counts b, c with b + c <= n, got b=${b}, c=${c}, n=${n}.`,
    );
  }
  return expectedTangoInterval(b, c, n, level);
}

/** Tango's interval of expected counts, not necessarily whole: smooth in n where rounded counts jitter (plans). */
export function expectedTangoInterval(b: number, c: number, n: number, level = 0.95): Interval {
  if (!(b >= 0 && c >= 0 && b + c <= n && n > 0)) {
    throw new SeamlabError(`Tango's interval needs counts b, c >= 0 with b + c <= n, got b=${b}, c=${c}, n=${n}.`);
  }
  const z = zOfLevel(level);
  const estimate = (b - c) / n;
  const statistic = (delta: number) => tangoStatistic(b, c, n, delta);
  return {
    low: estimate <= -1 ? -1 : crossing(statistic, z, -1, estimate),
    high: estimate >= 1 ? 1 : crossing(statistic, -z, estimate, 1),
  };
}

export function atLeastTango(bootstrap: Interval, b: number, c: number, n: number, level = 0.95): Interval {
  const score = tangoInterval(b, c, n, level);
  return { low: Math.min(bootstrap.low, score.low), high: Math.max(bootstrap.high, score.high) };
}

export interface PairedEvidence {
  low: number;
  high: number;
  mcnemarP: number;
}

// Shown only when the CI excludes 0 **and** exact McNemar rejects: the score interval alone is too eager (4 to 0:
// z = 2, exact p = 0.125), and "shown" must never stand beside a printed p above 0.05.
export function shownDirection(d: PairedEvidence, level = 0.95): "above" | "below" | null {
  const alpha = Math.round((1 - level) * 1e9) / 1e9; // 1 − 0.95 is 0.050000000000000044 in floating point
  if (!(d.mcnemarP < alpha)) return null;
  return d.low > 0 ? "above" : d.high < 0 ? "below" : null;
}
