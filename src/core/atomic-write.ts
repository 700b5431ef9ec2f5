// The one atomic file write: a temp file beside the target, renamed (or, when `exclusive`, hard-linked) into place,
// so a reader or a crash never sees half a file. Temp names carry the writer's pid, so stale ones can be reclaimed.
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

const TEMP_PATTERN = /^\..+\.(\d+)\.\d+-\d+\.seamlab-tmp$/;

let counter = 0;

export interface AtomicWriteOptions {
  /** Fail with EEXIST (and write nothing) when `path` already exists, instead of replacing it. */
  exclusive?: boolean;
  /** What a full disk's message tells the user to do (default: delete files on that disk, or write elsewhere). */
  diskFullAdvice?: string;
}

/** Writes `data` to `path` atomically; throws the underlying Node error (callers turn it into a SeamlabError). */
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
  commit(): void;
  abort(): void;
}

export function openAtomicFile(path: string, options: AtomicWriteOptions = {}): AtomicFile {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${threadId}-${counter++}.seamlab-tmp`);
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
        placeTempFile(temp, path, options.exclusive);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
    },
  };
}

/** Exclusive: a hard link fails if `path` appeared meanwhile (a checked rename where links are unsupported). */
function placeTempFile(temp: string, path: string, exclusive: boolean | undefined): void {
  if (!exclusive) return renameSync(temp, path);
  try {
    linkSync(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") || existsSync(path)) throw error;
    return renameSync(temp, path);
  }
  unlinkSync(temp);
}

/** Removes the temp files in `dir` whose writing process is gone; returns how many. */
export function removeStaleTempFiles(dir: string): number {
  const stale = namesLeftByGone(dir, TEMP_PATTERN);
  for (const name of stale) rmSync(join(dir, name), { force: true });
  return stale.length;
}

/** The names in `dir` matching one of `patterns` (group 1: a pid) whose process is gone, sorted; none if unreadable. */
export function namesLeftByGone(dir: string, ...patterns: RegExp[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.filter((name) => {
    const match = patterns.map((pattern) => pattern.exec(name)).find((m) => m !== null);
    return !!match && !processAlive(Number(match[1]));
  });
}
