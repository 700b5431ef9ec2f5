import { raiseSampleAdvice, type QuerySample } from "../retrieval/query-sample";
import type { Decision } from "../stats/non-inferiority";
import type { SweepResult } from "./sweep";

/**
 * Marks every undecided or leaning paired verdict of a sweep run on a query sample: when it asks for more queries
 * than the sample holds, its text says to raise the sample (`how`: the flag or notebook parameter) before writing
 * more queries. Returns the same result, its decisions annotated (a sweep on every query is returned unchanged).
 */
export function withSampleAdvice<T extends Pick<SweepResult, "curves" | "grids">>(
  result: T,
  sample: QuerySample,
  how: string,
): T {
  const note = (decision: Decision): Decision => {
    // Leaning on a choice not shown within the margin also asks for queries; leaning on the grid does not.
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
