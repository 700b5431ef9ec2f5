// Two seamlab runs never write one output at once: `.X.seamlab-lock` beside X (X may be switched by renaming) holds
// the writer's pid and command. A second run is refused by name; it never waits, so two runs cannot deadlock.
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { SeamlabError } from "./errors";
import { writeFailureMessage } from "./write-failure";
import { processAlive } from "./process-alive.cjs";

export interface OutputLockOptions {
  /** The flag that named the output ("--out", "--corpus-out", "--export"). */
  flag: string;
  /** The seamlab command taking the lock ("report", "queries"). */
  command: string;
  kind: "folder" | "file";
}

export const lockPathOf = (output: string): string => {
  const target = resolve(output);
  return join(dirname(target), `.${basename(target)}.seamlab-lock`);
};

/** Releases of the locks this process holds, by lock path: taking a lock again is a no-op. */
const held = new Map<string, () => void>();

function readHolder(lock: string): { pid: number; command: string | undefined } {
  const [pid, command] = readFileSync(lock, "utf8").split("\n");
  return { pid: Number(pid.trim()), command: command?.trim() || undefined };
}

/** Locks `output` until this process exits (taking over a dead holder's lock), or refuses while a live one holds it. */
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
  const release = () => {
    if (held.get(lock) !== release) return;
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

/** Creates `lock`, failing with EEXIST; any other failure ("/proc/version", a read-only disk) names the flag. */
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

/** Moves a dead holder's lock aside, and puts it back if a live process took it meanwhile. */
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
