import { mcnemarExactP } from "./paired";
import type { PairedDifference } from "./paired-best";
import { expectedTangoInterval, shownDirection, tangoInterval, type PairedEvidence } from "./paired-score";

// The non-inferiority rule on (best − config), and the queries at which the same rule would decide. Planning with the
// rule itself, not a normal sample size formula, keeps the two from disagreeing: with 40 agreeing queries the formula
// asked for 1,963 where Tango's floor is below a 1-point margin from 381.

export type ConfigStatus = "non-inferior" | "worse" | "unclear";

/** Non-inferior when the CI's upper bound is below the margin, else worse when shown above 0 (`shownDirection`). */
export function marginStatus(d: PairedEvidence, margin: number, level = 0.95): ConfigStatus {
  if (d.high < margin) return "non-inferior";
  return shownDirection(d, level) === "above" ? "worse" : "unclear";
}

export const MAX_PLANNED_QUERIES = 10_000_000;

export function scaledDiscordant(
  d: Pick<PairedDifference, "wins" | "losses">,
  queries: number,
  n: number,
): { wins: number; losses: number } {
  let wins = Math.round((d.wins * n) / queries);
  let losses = Math.round((d.losses * n) / queries);
  // both rounded up can pass n by one (1 and 1 of 2 at n = 3)
  if (wins + losses > n) {
    if (wins >= losses) wins--;
    else losses--;
  }
  return { wins, losses };
}

type Observed = Pick<PairedDifference, "diff" | "low" | "high" | "wins" | "losses">;

// The status at `n` queries if the observed discordant rates held. An observed CI wider than Tango's carries its
// excess over, shrinking as 1/√n, so at n = queries the plan starts from the verdict the data gave.
export function plannedStatus(d: Observed, queries: number, n: number, margin: number, level = 0.95): ConfigStatus {
  const wins = (d.wins * n) / queries;
  const losses = Math.min((d.losses * n) / queries, n - wins);
  const diff = (wins - losses) / n;
  const score = expectedTangoInterval(wins, losses, n, level);
  const observedScore = tangoInterval(d.wins, d.losses, queries, level);
  const shrink = Math.sqrt(queries / n);
  const low = d.low < observedScore.low ? Math.min(score.low, diff - (d.diff - d.low) * shrink) : score.low;
  const high = d.high > observedScore.high ? Math.max(score.high, diff + (d.high - d.diff) * shrink) : score.high;
  // the exact p matters only once the CI excludes 0
  let mcnemarP = 1;
  if (low > 0 && !(high < margin)) {
    const counts = scaledDiscordant(d, queries, n);
    mcnemarP = mcnemarExactP(counts.wins, counts.losses);
  }
  return marginStatus({ low, high, mcnemarP }, margin, level);
}

// The first n ≥ `queries` at which `plannedStatus` decides. A point estimate, not a power calculation: real data at
// that count falls short half the time.
export function queriesToDecide(d: Observed, queries: number, margin: number, level = 0.95): number {
  if (!(queries > 0) || queries >= MAX_PLANNED_QUERIES) return Infinity;
  const decides = (n: number) => plannedStatus(d, queries, n, margin, level) !== "unclear";
  if (decides(queries)) return queries;
  let undecided = queries;
  let decided = Math.min(2 * queries, MAX_PLANNED_QUERIES);
  while (!decides(decided)) {
    if (decided === MAX_PLANNED_QUERIES) return Infinity;
    undecided = decided;
    decided = Math.min(2 * decided, MAX_PLANNED_QUERIES);
  }
  while (decided - undecided > 1) {
    const mid = Math.floor((undecided + decided) / 2);
    if (decides(mid)) decided = mid;
    else undecided = mid;
  }
  return decided;
}
