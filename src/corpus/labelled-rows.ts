import { basename, extname } from "node:path";
import { parse } from "csv-parse/sync";
import type { Doc } from "../core/types";
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

export interface Row {
  line: number;
  fields: Record<string, unknown>;
}

export function readCsvRows(text: string, file: string): Row[] {
  try {
    const records = parse(text, { columns: true, info: true, skip_empty_lines: true, bom: true }) as {
      record: Record<string, string>;
      info: { lines: number };
    }[];
    return records.map((r) => ({ line: r.info.lines, fields: r.record }));
  } catch (error) {
    const e = error as { message?: string; lines?: number; column?: unknown };
    const column = typeof e.column === "string" || typeof e.column === "number" ? `, column ${String(e.column)}` : "";
    throw new SeamlabError(`${file}:${e.lines ?? "?"}${column}: malformed CSV: ${e.message ?? String(error)}`);
  }
}

/** A line that is no JSON object is an error, or with `skipMalformed` noted in `skipped`. */
export function readJsonlRows(text: string, file: string, options: LabelledOptions, skipped: string[]): Row[] {
  const rows: Row[] = [];
  const malformed = (message: string) => {
    if (!options.skipMalformed) throw new SeamlabError(`${message} (or pass --skip-malformed to skip such lines).`);
    skipped.push(message);
  };
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const position = /position (\d+)/.exec(String((error as Error).message));
      const column = position ? `, column ${Number(position[1]) + 1}` : "";
      malformed(
        `${file}:${i + 1}${column}: not valid JSON (${(error as Error).message}); each line must be one JSON object`,
      );
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      malformed(`${file}:${i + 1}: each line must be a JSON object like {"question": ..., "answer_span": ...}`);
      return;
    }
    rows.push({ line: i + 1, fields: value as Record<string, unknown> });
  });
  return rows;
}

/** Maps ids, file names and file names without extension to documents (first one wins). */
export function docIndex(docs: readonly Doc[]): Map<string, Doc> {
  const byKey = new Map<string, Doc>();
  const add = (key: string, doc: Doc) => {
    if (!byKey.has(key)) byKey.set(key, doc);
  };
  for (const doc of docs) add(doc.id, doc);
  for (const doc of docs) {
    const name = basename(doc.id);
    add(name, doc);
    add(name.slice(0, name.length - extname(name).length), doc);
  }
  return byKey;
}

export function requireString(fields: Record<string, unknown>, column: string): string {
  const value = fields[column];
  if (typeof value !== "string" || value.trim() === "")
    throw new RowError(`"${column}" must be a non-empty string.`, column);
  return value;
}
