// The sentences notebook 03 writes under its charts.
import type { SweepCurve, SweepResult } from "../experiment/sweep";
import { pct } from "./format";
import { thousands } from "../stats/format";
import type { Recommendation } from "./sweep";
import { tokenSampleNote } from "./row-sample";

const bestPoint = (curve: SweepCurve) => curve.points.reduce((a, b) => (b.y > a.y ? b : a));
const points = (fraction: number) => thousands(100 * fraction, 1);

/** "66.3% (95% CI 61.2%–71.0%), against 60.1% at overlap 0": the hit rate at `overlap`, and at the first overlap. */
export function hitRateAgainstFirst(curve: SweepCurve, overlap: number): string {
  const chosen = curve.points.find((p) => p.x === overlap)!;
  const first = curve.points[0];
  return (
    `${pct(chosen.y)} (95% CI ${pct(chosen.low ?? chosen.y)}–${pct(chosen.high ?? chosen.y)}), ` +
    `against ${pct(first.y)} at overlap ${first.x}`
  );
}

/** The paired verdict (margin, evidence, queries needed; Kneedle second), and the pick's hit rate against overlap 0. */
export function recommendationFinding(curve: SweepCurve, rec: Recommendation, size: number, k: number): string {
  return (
    `**\`${curve.splitter}\` at size ${size}, hit rate@${k}:** ${rec.reason} ` +
    `Hit rate@${k} at overlap ${rec.overlap}: ${hitRateAgainstFirst(curve, rec.overlap)}.`
  );
}

/** What the largest overlap costs against overlap 0 (vectors stored, tokens embedded) and what it buys. */
export function costFinding(curve: SweepCurve, result?: SweepResult): string {
  const zero = curve.points[0];
  const last = curve.points[curve.points.length - 1];
  const note = result ? tokenSampleNote(result.rows) : "";
  return (
    `Going from overlap ${zero.x} to ${last.x} multiplies the vectors stored by ${thousands(last.storageRatio ?? 1, 2)} ` +
    `and the tokens embedded by ${thousands(last.tokensRatio ?? 1, 2)}, ` +
    `for a hit-rate change of ${points(last.y - zero.y)} points.${note ? ` ${note}` : ""}`
  );
}

/** Dense retrieval's recommendation and gains from overlap, beside BM25's (`curve`) on the same chunks. */
export function denseFinding(
  curve: SweepCurve,
  denseCurve: SweepCurve,
  denseRec: Recommendation,
  embedder: string,
  k: number,
): string {
  const zero = curve.points[0];
  const dBest = bestPoint(denseCurve);
  const bBest = bestPoint(curve);
  const d0 = denseCurve.points[0];
  return (
    `**Dense retrieval (${embedder}):** ${denseRec.reason} ` +
    `Its best hit rate@${k}, ${pct(dBest.y)} (95% CI ${pct(dBest.low ?? dBest.y)}–${pct(dBest.high ?? dBest.y)}) ` +
    `at overlap ${dBest.x}, is ${points(dBest.y - d0.y)} points above overlap ${d0.x} (${pct(d0.y)}); ` +
    `BM25's best is ${points(bBest.y - zero.y)} points above its own. ` +
    `At overlap ${d0.x}, dense is ${thousands(Math.abs(100 * (d0.y - zero.y)), 1)} points ` +
    `${d0.y >= zero.y ? "above" : "below"} BM25 (${pct(d0.y)} against ${pct(zero.y)}).`
  );
}
