import { raiseSampleAdvice, type QuerySample } from "../retrieval/query-sample";
import type { Decision } from "../stats/non-inferiority";
import type { SweepResult } from "./sweep";

/** Verdicts asking for more queries than a query sample holds say to raise the sample (`how`) first. */
export function withSampleAdvice<T extends Pick<SweepResult, "curves" | "grids">>(
  result: T,
  sample: QuerySample,
  how: string,
): T {
  const note = (decision: Decision): Decision => {
    if (decision.verdict === "decided" || decision.queriesNeeded === null) return decision;
    const advice = raiseSampleAdvice(decision.queriesNeeded, sample, how);
    return advice ? { ...decision, undecidedNote: advice } : decision;
  };
  return {
    ...result,
    curves: result.curves.map((curve) => ({ ...curve, decision: note(curve.decision) })),
    grids: result.grids.map((grid) => ({ ...grid, decision: note(grid.decision) })),
  };
}
