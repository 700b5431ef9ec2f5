// Notebook 03's "queries that flip": the verdict's choice against overlap 0, through `seamlab flips`'s computation.
import { curveRows, type SweepResult } from "../experiment/sweep";
import { pText, thousands } from "../stats/format";
import type { SplitterConfig } from "../splitters/config";
import { computeFlips, type FlipRow, type FlipsSummary } from "./flips";
import type { RetrievalInputs } from "./inputs";
import { pct } from "./format";

export interface VerdictFlips {
  /** "overlap 0" and "overlap 150" */
  nameA: string;
  nameB: string;
  configA: SplitterConfig;
  configB: SplitterConfig;
  summary: FlipsSummary | null;
  rows: FlipRow[];
  /** why there is nothing to compare (the choice is the baseline and so is the best) */
  none?: string;
}

/** The flips between overlap 0 and the first curve's choice (its best, when the choice is overlap 0 itself). */
export async function flipsOfVerdict(inputs: RetrievalInputs, result: SweepResult): Promise<VerdictFlips> {
  const curve = result.curves[0];
  const rows = curveRows(result.rows, curve);
  const decision = curve.decision;
  const b = decision.choice !== decision.baseline ? decision.choice : decision.best;
  const configA = rows[decision.baseline].config.splitter;
  const configB = rows[b].config.splitter;
  const nameA = `overlap ${configA.overlap}`;
  const nameB = `overlap ${configB.overlap}`;
  const sides = { nameA, nameB, configA, configB };
  if (b === decision.baseline) {
    const none = `the verdict's choice and the best are both ${nameA}, the baseline: no other overlap to read against it`;
    return { ...sides, summary: null, rows: [], none };
  }
  const flips = await computeFlips(inputs.docs, inputs.queries, configA, configB, { k: curve.k });
  return { ...sides, summary: flips.summary, rows: flips.rows };
}

/** The counts in a sentence: "overlap 150 wins 18 queries and loses 15 against overlap 0 (268 tie; McNemar p = 0.73)". */
export function flipsFinding(flips: VerdictFlips): string {
  if (!flips.summary) return `Nothing to read here: ${flips.none}.`;
  const s = flips.summary;
  const seamWins = flips.rows.filter((row) => row.outcome === "b wins" && row.a.seam?.inside).length;
  const wins = flips.rows.filter((row) => row.outcome === "b wins").length;
  return (
    `**${flips.nameB} wins ${thousands(s.wins)} queries and loses ${thousands(s.losses)} against ${flips.nameA}** ` +
    `(${thousands(s.ties)} give the same outcome; hit rate ${pct(s.hitRateA)} → ${pct(s.hitRateB)}; exact McNemar ` +
    `${pText(s.mcnemarP)}). ` +
    `Of its ${thousands(wins)} wins, ${thousands(seamWins)} are queries whose gold span a seam of ${flips.nameA} cuts: ` +
    `the wins overlap exists for. The others moved through the ranking, not through a seam.`
  );
}
