// Notebook 03's paired section: each overlap's difference from the best (and from overlap 0) on the same queries.
import type { SweepCurve } from "../experiment/sweep";
import { beyondPlannedQueries, marginText } from "../experiment/verdict";
import { formatP } from "../stats/format";
import { points, pointsInterval } from "./format";

/** `lineWithBand` rows: hit rate − best per overlap in points, the paired 95% CI as the band, a series per splitter. */
export function differenceFromBestRows(curves: readonly SweepCurve[]): Record<string, number | string>[] {
  return curves.flatMap((curve) =>
    curve.points.map((p, j) => {
      const d = curve.decision.configs[j].fromBest;
      return { x: p.x, y: -points(d.diff), low: -points(d.high), high: -points(d.low), series: curve.splitter };
    }),
  );
}

/** The band a difference must stay inside to count as "as good as the best": from −margin to 0, in points. */
export function marginBand(curve: SweepCurve): { from: number; to: number; label: string } {
  const m = 100 * curve.decision.margin;
  return { from: -m, to: 0, label: `margin: within ${marginText(curve.decision.margin)} of the best` };
}

/** One row per overlap: hit rate, the paired differences from the best and from overlap 0, status, and the queries in
 * all the rule would need (none beside the best: its own CI only measures how lucky the pick may be). */
export function pairedTableRows(curve: SweepCurve): Record<string, number | string>[] {
  const d = curve.decision;
  const base = curve.points[d.baseline].x;
  return curve.points.map((p, i) => {
    const c = d.configs[i];
    return {
      overlap: p.x,
      "hit rate (%)": points(c.rate),
      "best − it (points)": points(c.fromBest.diff),
      "paired 95% CI": pointsInterval(c.fromBest.low, c.fromBest.high),
      "McNemar p vs best": formatP(c.fromBest.mcnemarP),
      [`it − overlap ${base} (points)`]: points(c.fromBaseline.diff),
      [`95% CI vs ${base}`]: pointsInterval(c.fromBaseline.low, c.fromBaseline.high),
      [`McNemar p vs ${base}`]: formatP(c.fromBaseline.mcnemarP),
      status: i === d.best ? "best" : c.status,
      "queries to decide (in all)":
        i === d.best || c.queriesNeeded === null
          ? ""
          : Number.isFinite(c.queriesNeeded)
            ? c.queriesNeeded
            : beyondPlannedQueries,
      "vectors vs overlap 0": p.storageRatio === null ? "" : Math.round(100 * p.storageRatio) / 100,
    };
  });
}
