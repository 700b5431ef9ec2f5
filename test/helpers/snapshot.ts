// Snapshot tests for outputs that are data, like chart specs (as Observable Plot and vega-lite test theirs): the
// value is normalised (object keys sorted, numbers rounded to 6 significant digits so float noise in the last bits
// is not a change) and compared with committed JSON under test/. `SEAMLAB_UPDATE_SNAPSHOTS=1` rewrites the files
// instead; review the diff before committing, since a snapshot only pins what was once checked by eye.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";

export const UPDATE_VARIABLE = "SEAMLAB_UPDATE_SNAPSHOTS";

/** Sorted keys, numbers to 6 significant digits, undefined dropped (as JSON would). */
export function normaliseForSnapshot(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? Number(value.toPrecision(6)) : String(value);
  if (Array.isArray(value)) return value.map(normaliseForSnapshot);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined && typeof item !== "function") out[key] = normaliseForSnapshot(item);
    }
    return out;
  }
  return value;
}

/** Compares `value`, normalised, with the JSON snapshot at `path` (or writes it when updating). */
export function assertMatchesSnapshot(value: unknown, path: string): void {
  const actual = normaliseForSnapshot(value);
  const text = JSON.stringify(actual, null, 2) + "\n";
  const shown = relative(process.cwd(), path);
  if (process.env[UPDATE_VARIABLE]) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return;
  }
  if (!existsSync(path)) assert.fail(`no snapshot ${shown}: run with ${UPDATE_VARIABLE}=1 to write it, then review it`);
  try {
    assert.deepEqual(actual, JSON.parse(readFileSync(path, "utf8")));
  } catch (error) {
    // Keep node's diff, and say how to accept an intended change.
    const hint = `${shown} differs (if intended, rerun with ${UPDATE_VARIABLE}=1 and review the diff)`;
    if (error instanceof assert.AssertionError) error.message = `${hint}\n${error.message}`;
    throw error;
  }
}
