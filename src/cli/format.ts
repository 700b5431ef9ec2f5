/** The CLI's output: aligned text tables, numbers, JSON, atomic file writes. */
import { statSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { openAtomicFile, type AtomicFile } from "../core/atomic-write";
import { SeamlabError } from "../core/errors";

export interface Column {
  header: string;
  align?: "left" | "right";
}

/** A label column, then right-aligned number columns. */
export function numberColumns(label: string, ...numbers: string[]): Column[] {
  return [{ header: label }, ...numbers.map((header) => ({ header, align: "right" as const }))];
}

/** A plain-text table: header, a rule, one line per row, columns padded to their widest cell. */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, i) =>
        column.align === "right" ? (cells[i] ?? "").padStart(widths[i]) : (cells[i] ?? "").padEnd(widths[i]),
      )
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header)), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join(
    "\n",
  );
}

/** A table of records, one column per key of the first (or `headers`); `right` says which columns align right. */
export function formatRecords(
  rows: readonly Record<string, unknown>[],
  right: (header: string, i: number) => boolean = () => false,
  headers = Object.keys(rows[0] ?? {}),
): string {
  return formatTable(
    headers.map((header, i) => ({ header, align: right(header, i) ? "right" : "left" })),
    rows.map((row) => headers.map((h) => String(row[h]))),
  );
}

export function formatKeyValues(pairs: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...pairs.map(([key]) => key.length));
  return pairs.map(([key, value]) => `${key.padEnd(width)}  ${value}`.trimEnd()).join("\n");
}

/** A number with `digits` decimals ("n/a" for NaN, so empty corpora print cleanly). */
export function formatFixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

export function formatRatio(value: number, digits = 2): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)}x` : "n/a";
}

/** A JSON.stringify replacer: ±Infinity becomes "Infinity" (`Number()` and Python read it back), not null ("none"). */
export function infinityAsText(_key: string, v: unknown): unknown {
  return typeof v === "number" && !Number.isFinite(v) && !Number.isNaN(v) ? String(v) : v;
}

/** The documents a sample measured, as `--json` prints it. */
export function sampleJson(sample: { description: string; indexes: readonly number[]; population: number }) {
  return { description: sample.description, documents: sample.indexes.length, population: sample.population };
}

type Replacer = (key: string, value: unknown) => unknown;

/** Non-integer numbers rounded to 4 decimals (no float noise; byte-identical reruns). */
const rounded: Replacer = (key, v) =>
  typeof v === "number" && Number.isFinite(v) && !Number.isInteger(v)
    ? Math.round(v * 1e4) / 1e4
    : infinityAsText(key, v);

export function toJson(value: unknown): string {
  return JSON.stringify(value, rounded, 2);
}

/** Prints `value` as pretty JSON, rounded as `toJson` rounds it unless another replacer (or null) is given. */
export function printJson(value: unknown, replacer: Replacer | null = rounded): void {
  process.stdout.write(JSON.stringify(value, replacer ?? undefined, 2) + "\n");
}

/** Refuses `path` before long work when it exists (without `force`), is a folder, or its folder is missing. */
export function refuseToOverwrite(path: string, force: boolean, flag: string): void {
  const existing = statOrUndefined(path);
  if (existing?.isDirectory()) throw new SeamlabError(`${flag} ${path} is a folder; give the path of a file to write.`);
  if (!force && existing) throw new SeamlabError(`${flag} ${path} already exists; pass --force to overwrite it.`);
  const folder = statOrUndefined(dirname(path) || ".");
  if (!folder) throw new SeamlabError(`${flag} ${path}: folder ${dirname(path)} does not exist.`);
  if (!folder.isDirectory()) throw new SeamlabError(`${flag} ${path}: ${dirname(path)} is a file, not a folder.`);
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Writes `content` to `path` whole or not at all; an existing file only with `force`. */
export function writeFileAtomically(path: string, content: string, { force = false, flag = "output" } = {}): void {
  const file = openOutputFile(path, { force, flag });
  file.write(content);
  file.commit();
}

/** `writeFileAtomically` piece by piece: `write`, then `commit` or `abort`; errors become SeamlabErrors naming `flag`. */
export function openOutputFile(path: string, { force = false, flag = "output" } = {}): AtomicFile {
  refuseToOverwrite(path, force, flag);
  const guarded = <T>(action: () => T, abortOnError?: AtomicFile): T => {
    try {
      return action();
    } catch (error) {
      abortOnError?.abort();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw new SeamlabError(`${flag} ${path} already exists; pass --force to overwrite it.`);
      if (typeof code === "string" && code.startsWith("E"))
        throw new SeamlabError(`${flag} ${path}: cannot write it (${(error as Error).message}).`);
      throw error;
    }
  };
  const opened = guarded(() => openAtomicFile(path, { exclusive: !force }));
  return {
    write: (data) => guarded(() => opened.write(data), opened),
    commit: () => guarded(() => opened.commit()),
    abort: () => opened.abort(),
  };
}
