/**
 * The lock that keeps two reports from writing one `--out` at once: a file `.X.seamlab-lock` beside X (X itself is
 * switched by renaming, so the lock cannot live inside it) holding the id of the process that writes X.
 */
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { SeamlabError } from "../core/errors";
import { processAlive } from "../core/process-alive.cjs";

/**
 * Takes the lock on `outDir` (a file `.X.seamlab-lock` beside it holding this process's id) for as long as this
 * process runs, or refuses when another live seamlab holds it. A lock left by a process that died is taken over.
 * Returns the function that releases it (also called when the process exits).
 */
export function lockOutDir(outDir: string, flag = "--out"): () => void {
  const target = resolve(outDir);
  const lock = join(dirname(target), `.${basename(target)}.seamlab-lock`);
  mkdirSync(dirname(target), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 3) throw error;
    }
    const holder = Number(readFileSync(lock, "utf8").trim());
    if (holder > 0 && holder !== process.pid && processAlive(holder)) {
      throw new SeamlabError(
        `${flag} ${outDir}: another seamlab report (process ${holder}) is writing this folder; wait for it to ` +
          `finish, or choose another ${flag}.`,
      );
    }
    // The holder is gone: move its lock away under a name only this process uses, and check it is still the same
    // dead holder's before dropping it (a live process may have taken the lock meanwhile).
    const aside = `${lock}.${process.pid}.stale`;
    try {
      renameSync(lock, aside);
    } catch {
      continue;
    }
    const moved = Number(readFileSync(aside, "utf8").trim());
    if (moved === holder) unlinkSync(aside);
    else {
      try {
        linkSync(aside, lock);
      } finally {
        unlinkSync(aside);
      }
    }
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    try {
      if (Number(readFileSync(lock, "utf8").trim()) === process.pid) unlinkSync(lock);
    } catch {
      // already gone
    }
  };
  process.once("exit", release);
  return release;
}
