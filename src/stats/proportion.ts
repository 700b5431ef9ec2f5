import { SeamlabError } from "../core/errors";
import type { Interval } from "./types";

/** 100 * part / whole, or 0 when whole is 0 (an empty corpus has no zero seams, not NaN of them). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : (100 * part) / whole;
}

export const Z95 = 1.959963984540054;

/** Wilson score interval of a binomial proportion: sound near 0 and 1 and for small n; n = 0 gives [0, 1]. */
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
  // rounding noise: 0/n starts exactly at 0 and n/n ends exactly at 1
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - margin),
    high: successes === n ? 1 : Math.min(1, centre + margin),
  };
}
