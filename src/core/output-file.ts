/**
 * Checks for a file a command writes (`--out FILE`), made before any work: an existing file is replaced only with
 * `--force` (the user named it, so `--force` may replace it, whoever wrote it), a folder or a link is never replaced,
 * and a missing folder on the way is created later.
 */
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { SeamlabError } from "./errors";

/**
 * Refuses `path` when it exists and `force` is not given, or when it is a folder or a symbolic link (each named
 * with its flag and the way out). `also` names files written beside it under the same `--force` (a sidecar).
 */
export function checkOutputFile(
  path: string,
  { flag, force, also = [] }: { flag: string; force: boolean; also?: string[] },
) {
  for (const file of [path, ...also]) {
    let stat;
    try {
      stat = lstatSync(file);
    } catch {
      continue;
    }
    const what = file === path ? `${flag} ${path}` : `${file} (written beside ${flag} ${path})`;
    if (stat.isDirectory()) throw new SeamlabError(`${what} is a folder; give a file name.`);
    if (stat.isSymbolicLink())
      throw new SeamlabError(`${what} is a symbolic link; give the file itself, or another name.`);
    if (!force)
      throw new SeamlabError(
        `${what} already exists; seamlab does not overwrite a file unless told to: pass --force to replace it, ` +
          `or choose another name.`,
      );
  }
}

/** `path` with symbolic links resolved, also when it does not exist yet (its nearest existing folder is resolved). */
export function realPathOfNew(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(realPathOfNew(parent), basename(absolute));
}
