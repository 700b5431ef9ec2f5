/**
 * The lock that keeps two seamlab runs from writing one output at once (a report's `--out` folder, the corpus
 * `queries` writes, a `--export` file): a file `.X.seamlab-lock` beside X (X itself may be switched by renaming, so
 * the lock cannot live inside it) holding the id of the process that writes X and the command it runs. A second run
 * is refused by name; it never waits, so two runs can never deadlock on two outputs.
 */
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { SeamlabError } from "./errors";
import { writeFailureMessage } from "./write-failure";
import { processAlive } from "./process-alive.cjs";

export interface OutputLockOptions {
  /** The flag that named the output, for the message ("--out", "--corpus-out", "--export"). */
  flag: string;
  /** The seamlab command taking the lock ("report", "queries"), which a refused run names. */
  command: string;
  /** What the output is, for the message. */
  kind: "folder" | "file";
}

/** The lock file of `output`. */
export const lockPathOf = (output: string): string => {
  const target = resolve(output);
  return join(dirname(target), `.${basename(target)}.seamlab-lock`);
};

/** Releases of the locks this process holds, by lock path: taking a lock again is a no-op. */
const held = new Map<string, () => void>();

interface Holder {
  pid: number;
  command: string | undefined;
}

function readHolder(lock: string): Holder {
  const [pid, command] = readFileSync(lock, "utf8").split("\n");
  return { pid: Number(pid.trim()), command: command?.trim() || undefined };
}

/**
 * Takes the lock on `output` for as long as this process runs, or refuses (a SeamlabError naming the path and the
 * other process's id) when another live seamlab holds it. A lock left by a process that died is taken over.
 * Returns the function that releases it (also called when the process exits).
 */
export function lockOutput(output: string, options: OutputLockOptions): () => void {
  const lock = lockPathOf(output);
  const mine = held.get(lock);
  if (mine) return mine;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = createLock(lock, output, options.flag);
      try {
        writeFileSync(fd, `${process.pid}\n${options.command}\n`);
      } catch (error) {
        unlinkSync(lock); // an empty lock would name no holder
        throw error;
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 3) throw error;
    }
    const holder = readHolder(lock);
    if (holder.pid > 0 && holder.pid !== process.pid && processAlive(holder.pid)) {
      const { flag, kind } = options;
      throw new SeamlabError(
        `${flag} ${output}: another seamlab ${holder.command ?? "run"} (process ${holder.pid}) is writing this ` +
          `${kind}; wait for it to finish, or choose another ${flag}. (If no seamlab runs, delete ${lock}.)`,
      );
    }
    takeOverStale(lock, holder.pid);
  }
  let holding = true;
  const release = () => {
    if (!holding) return;
    holding = false;
    held.delete(lock);
    try {
      if (readHolder(lock).pid === process.pid) unlinkSync(lock);
    } catch {
      // already gone
    }
  };
  held.set(lock, release);
  process.once("exit", release);
  return release;
}

/**
 * Creates `lock` (and its folder), failing with EEXIST when it exists. Any other failure means nothing can be
 * written beside `output` ("/proc/version", a read-only or full disk): a SeamlabError naming the flag and the path.
 */
function createLock(lock: string, output: string, flag: string): number {
  try {
    mkdirSync(dirname(lock), { recursive: true });
    return openSync(lock, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw error;
    throw new SeamlabError(
      `${flag} ${output}: cannot write there: ${writeFailureMessage(error) ?? (error as Error).message}`,
    );
  }
}

/** Releases every lock this process holds (a command that ran in-process is done with its outputs). */
export function releaseOutputLocks(): void {
  for (const release of [...held.values()]) release();
}

/**
 * The holder of `lock` is gone: move its lock away under a name only this process uses, and check it is still the
 * same dead holder's before dropping it (a live process may have taken the lock meanwhile, which is then put back).
 */
function takeOverStale(lock: string, holder: number): void {
  const aside = `${lock}.${process.pid}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // someone else moved it first: try again
  }
  if (readHolder(aside).pid === holder) unlinkSync(aside);
  else {
    try {
      linkSync(aside, lock);
    } finally {
      unlinkSync(aside);
    }
  }
}
