/** Output helpers for the CLI: aligned text tables, locale-independent numbers, JSON, atomic file writes. */
import { statSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { openAtomicFile, type AtomicFile } from "../core/atomic-write";
import { SeamlabError } from "../core/errors";

export interface Column {
  header: string;
  /** Numbers read best right-aligned; text left-aligned (the default). */
  align?: "left" | "right";
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

/** `label   value` lines with the labels padded to one width. */
export function formatKeyValues(pairs: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...pairs.map(([key]) => key.length));
  return pairs.map(([key, value]) => `${key.padEnd(width)}  ${value}`.trimEnd()).join("\n");
}

/** A number with `digits` decimals ("n/a" for NaN, so empty corpora print cleanly, as `pct` and `num` do). */
export function formatFixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** A ratio as a multiplier, e.g. `1.25x`. */
export function formatRatio(value: number, digits = 2): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)}x` : "n/a";
}

/**
 * A JSON.stringify replacer for numbers JSON has no form for: an infinite number becomes the string "Infinity" (or
 * "-Infinity"), which `Number()` and Python's `float()` read back, where JSON.stringify alone writes null, which reads
 * as "none" (a paired decision's `queriesNeeded` is null when decided and Infinity when no count up to the planning
 * cap would decide it). NaN, a figure with nothing to measure, stays null.
 */
export function infinityAsText(_key: string, v: unknown): unknown {
  return typeof v === "number" && !Number.isFinite(v) && !Number.isNaN(v) ? String(v) : v;
}

/**
 * Pretty JSON with non-integer numbers rounded to 4 decimals: machine-readable output should not carry
 * float noise, and equal inputs then give byte-identical output. Infinite numbers as `infinityAsText` writes them.
 */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (key, v) =>
      typeof v === "number" && Number.isFinite(v) && !Number.isInteger(v)
        ? Math.round(v * 1e4) / 1e4
        : infinityAsText(key, v),
    2,
  );
}

/**
 * Throws a SeamlabError when `path` cannot be written as asked: it exists and overwriting was not asked for,
 * it is a folder, or its folder is missing (check before long work).
 */
export function refuseToOverwrite(path: string, force: boolean, flag: string): void {
  const existing = statOrUndefined(path);
  if (existing?.isDirectory()) {
    throw new SeamlabError(`${flag} ${path} is a folder; give the path of a file to write.`);
  }
  if (!force && existing) {
    throw new SeamlabError(`${flag} ${path} already exists; pass --force to overwrite it.`);
  }
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

/**
 * Writes `content` to `path` atomically (see core/atomic-write): readers never see a half-written file, and an
 * existing file is never clobbered without `force`.
 */
export function writeFileAtomically(path: string, content: string, { force = false, flag = "output" } = {}): void {
  const file = openOutputFile(path, { force, flag });
  file.write(content);
  file.commit();
}

/**
 * `writeFileAtomically` for content produced piece by piece: `write` as often as needed, then `commit` (the file
 * appears whole) or `abort` (nothing appears). Write errors become SeamlabErrors naming `flag`.
 */
export function openOutputFile(path: string, { force = false, flag = "output" } = {}): AtomicFile {
  refuseToOverwrite(path, force, flag);
  const fail = (error: unknown): never => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new SeamlabError(`${flag} ${path} already exists; pass --force to overwrite it.`);
    if (typeof code === "string" && code.startsWith("E"))
      throw new SeamlabError(`${flag} ${path}: cannot write it (${(error as Error).message}).`);
    throw error;
  };
  let file: AtomicFile | undefined;
  try {
    file = openAtomicFile(path, { exclusive: !force });
  } catch (error) {
    fail(error);
  }
  const opened = file!;
  return {
    write(data) {
      try {
        opened.write(data);
      } catch (error) {
        opened.abort();
        fail(error);
      }
    },
    commit() {
      try {
        opened.commit();
      } catch (error) {
        fail(error);
      }
    },
    abort: () => opened.abort(),
  };
}
