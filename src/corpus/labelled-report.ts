import { SeamlabError } from "../core/errors";
import type { LabelledOptions, LabelledReport, LabelledShape } from "./types";

/** A problem with one row of a labelled set (the caller adds file and line). */
export class RowError extends Error {
  constructor(
    message: string,
    readonly column?: string,
  ) {
    super(message);
  }
}

export function emptyReport(file: string, shape: LabelledShape, rows: number): LabelledReport {
  return {
    file,
    shape,
    rows,
    queries: 0,
    skippedMalformed: 0,
    malformed: [],
    notLocated: {},
    ambiguous: 0,
    offsetsCorrected: 0,
    offsetShifts: {},
  };
}

export function countReason(report: LabelledReport, reason: string): void {
  report.notLocated[reason] = (report.notLocated[reason] ?? 0) + 1;
}

/** A SeamlabError naming where the row is, or with `skipMalformed` the row counted (its message among the first 5). */
export function rejectRow(report: LabelledReport, message: string, options: LabelledOptions): void {
  if (!options.skipMalformed) throw new SeamlabError(`${message} (or pass --skip-malformed to skip such rows).`);
  report.skippedMalformed++;
  if (report.malformed.length < 5) report.malformed.push(message);
}

export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** The occurrence nearest a `given` offset that missed (first on a tie), counted; else undefined, counted by reason. */
export function placeNear(
  text: string,
  needle: string,
  given: number,
  report: LabelledReport,
  reason: string,
): number | undefined {
  const found = occurrences(text, needle);
  if (found.length === 0) {
    countReason(report, reason);
    return undefined;
  }
  let best = found[0];
  for (const c of found) if (Math.abs(c - given) < Math.abs(best - given)) best = c;
  report.offsetsCorrected++;
  report.offsetShifts[String(best - given)] = (report.offsetShifts[String(best - given)] ?? 0) + 1;
  return best;
}
