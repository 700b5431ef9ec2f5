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

/** A report with nothing counted yet. */
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

/** Counts an answer or reference that could not be placed in the corpus, by reason. */
export function countReason(report: LabelledReport, reason: string): void {
  report.notLocated[reason] = (report.notLocated[reason] ?? 0) + 1;
}

/** Counts a given offset moved to the nearest occurrence of its text, and by how much. */
export function recordShift(report: LabelledReport, shift: number): void {
  report.offsetsCorrected++;
  const key = String(shift);
  report.offsetShifts[key] = (report.offsetShifts[key] ?? 0) + 1;
}

/**
 * The one rule for a malformed row: a SeamlabError naming where it is, unless `skipMalformed` is set; then the
 * row is counted (and its message kept among the first five).
 */
export function rejectRow(report: LabelledReport, message: string, options: LabelledOptions): void {
  if (!options.skipMalformed) throw new SeamlabError(`${message} (or pass --skip-malformed to skip such rows).`);
  report.skippedMalformed++;
  if (report.malformed.length < 5) report.malformed.push(message);
}
