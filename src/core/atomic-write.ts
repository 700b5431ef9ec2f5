/**
 * The one atomic file write. Content goes to a temp file beside the target and is then renamed into place (or
 * hard-linked, when an existing file must not be replaced), so a reader or a crash never sees half a file. Temp
 * files are named `.<name>.<pid>.<n>.seamlab-tmp`, so a later run can tell its own leftovers from a user's files
 * and reclaim them once the process that wrote them is gone (`removeStaleTempFiles`).
 */
import {
  closeSync,
  existsSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { threadId } from "node:worker_threads";
import { diskFullError, isDiskFull } from "./disk-full";
import { processAlive } from "./process-alive.cjs";

export { processAlive };

const TEMP_SUFFIX = ".seamlab-tmp";
const TEMP_PATTERN = /^\..+\.(\d+)\.\d+-\d+\.seamlab-tmp$/;

let counter = 0;

/** The temp path a write to `path` uses (exported for tests and for the stale-file sweep). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${threadId}-${counter++}${TEMP_SUFFIX}`);
}

export interface AtomicWriteOptions {
  /** Fail with EEXIST (and write nothing) when `path` already exists, instead of replacing it. */
  exclusive?: boolean;
  /** What a full disk's message tells the user to do (default: delete files on that disk, or write elsewhere). */
  diskFullAdvice?: string;
}

/**
 * Writes `data` to `path` atomically. With `exclusive`, an existing `path` is never replaced: the temp file is
 * hard-linked into place, which fails if `path` appeared meanwhile (falling back to a checked rename on
 * filesystems without hard links). Throws the underlying Node error; callers turn it into a SeamlabError.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const file = openAtomicFile(path, options);
  try {
    file.write(data);
  } catch (error) {
    file.abort();
    throw error;
  }
  file.commit();
}

/** A file written piece by piece into its temp file and put in place whole by `commit` (or dropped by `abort`). */
export interface AtomicFile {
  write(data: string | Uint8Array): void;
  /** Closes the temp file and moves it into place as `writeFileAtomic` does (same `exclusive` rule). */
  commit(): void;
  /** Closes and removes the temp file; `path` is untouched. */
  abort(): void;
}

/** Opens `path` for an atomic write of content produced piece by piece (e.g. one line per seam of a large corpus). */
export function openAtomicFile(path: string, options: AtomicWriteOptions = {}): AtomicFile {
  const temp = tempPathFor(path);
  // a full disk: the temp file goes at once, and the message names the file and what to do
  const diskFull = (error: unknown) =>
    isDiskFull(error)
      ? diskFullError({
          path,
          operation: `writing ${basename(path)}`,
          cleaned: "the partly written temp file was removed",
          advice: options.diskFullAdvice ?? "delete files you no longer need on that disk, or write elsewhere",
        })
      : error;
  let fd: number;
  try {
    fd = openSync(temp, "w");
  } catch (error) {
    throw diskFull(error);
  }
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  const abort = () => {
    close();
    rmSync(temp, { force: true });
  };
  return {
    write(data) {
      try {
        writeFileSync(fd, data);
      } catch (error) {
        if (!isDiskFull(error)) throw error;
        abort();
        throw diskFull(error);
      }
    },
    abort,
    commit() {
      close();
      try {
        placeTempFile(temp, path, options);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
    },
  };
}

function placeTempFile(temp: string, path: string, options: AtomicWriteOptions): void {
  if (!options.exclusive) {
    renameSync(temp, path);
    return;
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") || existsSync(path)) throw error;
    renameSync(temp, path);
    return;
  }
  unlinkSync(temp);
}

/**
 * Removes temp files that `writeFileAtomic` left in `dir` when a process died mid-write (its pid no longer
 * runs). Only names matching our own pattern are touched. Returns how many were removed.
 */
export function removeStaleTempFiles(dir: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const match = TEMP_PATTERN.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    rmSync(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}
