// The real corpora (opentelemetry-docs, tts-handbook, Chroma's set, COVID-QA) are not part of a clone: tests and
// benchmarks read them only from the folder SEAMLAB_DATA_DIR names, never from an implicit ../shared.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";

export const DATA_DIR_VARIABLE = "SEAMLAB_DATA_DIR";

/** The real-corpus folder, or undefined when SEAMLAB_DATA_DIR is unset or empty. */
export function dataDir(): string | undefined {
  const value = process.env[DATA_DIR_VARIABLE];
  return value ? resolve(value) : undefined;
}

/** The real-corpus folder; throws a message saying how to set it when it is unset or not a folder. */
export function requireDataDir(what = "this real-corpus test"): string {
  const dir = dataDir();
  if (!dir) throw new Error(`${what} needs ${DATA_DIR_VARIABLE}: set it to the folder holding the real corpora.`);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new Error(`${DATA_DIR_VARIABLE}=${process.env[DATA_DIR_VARIABLE]} is not a folder (${dir}).`);
  return dir;
}

/**
 * For benchmarks: the real-corpus folder, or undefined after printing the one line that says what is skipped
 * and why. The caller returns when it gets undefined.
 */
export function dataDirOrSkip(bench: string, needs: string): string | undefined {
  const dir = dataDir();
  if (!dir) console.log(`${bench}: skipped (needs ${needs}; ${DATA_DIR_VARIABLE} is unset)`);
  return dir;
}
