/**
 * A folder seamlab writes whole (a report, the corpus `queries ict` writes beside its labelled file): it holds plain
 * files only, plus `.seamlab-manifest.json` naming every file with its sha256, the proof that a file is seamlab's
 * when the time comes to delete it. A new version is written into a staging folder beside the target
 * (`.<name>.seamlab-staging-<pid>-<hex>`) and switched in by renaming: the old folder is renamed aside
 * (`.<name>.seamlab-previous-<pid>-<hex>`), the staging folder takes its name, and the old one is then removed file
 * by file, each checked against its recorded hash. A reader never sees two versions mixed: between the two renames
 * (an instant, unless the process is killed right there) the folder is absent, and the old one stands whole beside
 * it until `recoverBeside` puts it back. A file someone edited, or put there, is never deleted: it stays where it is
 * and is returned, so that the caller can say where it went.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { processAlive } from "./process-alive.cjs";
import { diskFullError, isDiskFull } from "./disk-full";

export const MANIFEST = ".seamlab-manifest.json";

export interface FolderManifest {
  /** What wrote the folder ("report", "corpus"): a folder of one kind is never taken for another. */
  seamlab: string;
  /** sha256 (hex) of every file, by path relative to the folder (`/`-separated). */
  files: Record<string, string>;
}

export const sha256 = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The folder's manifest when it is one of `kind`'s, else undefined (missing, unreadable or of another kind). */
export function readFolderManifest<M extends FolderManifest = FolderManifest>(
  dir: string,
  kind: string,
): M | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Partial<M> | null;
    if (!parsed || parsed.seamlab !== kind || typeof parsed.files !== "object" || parsed.files === null)
      return undefined;
    return parsed as M;
  } catch {
    return undefined;
  }
}

export interface Ownership {
  /** Files whose content still hashes to what the manifest recorded. */
  ours: string[];
  /** Files the manifest names whose content changed since (someone edited them). */
  edited: string[];
  /** Everything else: files, links and folders the manifest does not name. Paths relative to the folder. */
  foreign: string[];
}

/** Sorts every entry under `dir` into ours, edited and foreign, by the manifest (the manifest itself is left out). */
export function ownershipOf(dir: string, manifest: FolderManifest | undefined): Ownership {
  const result: Ownership = { ours: [], edited: [], foreign: [] };
  const files = manifest?.files ?? {};
  const walk = (at: string) => {
    for (const name of readdirSync(join(dir, at)).sort()) {
      const rel = at === "" ? name : `${at}/${name}`;
      if (rel === MANIFEST) continue;
      const stat = lstatSync(join(dir, rel));
      const recorded = Object.prototype.hasOwnProperty.call(files, rel) ? files[rel] : undefined;
      if (stat.isDirectory() && !isPrefixOfRecorded(files, rel)) result.foreign.push(rel);
      else if (stat.isDirectory()) walk(rel);
      else if (!stat.isFile() || typeof recorded !== "string") result.foreign.push(rel);
      else if (sha256(readFileSync(join(dir, rel))) === recorded) result.ours.push(rel);
      else result.edited.push(rel);
    }
  };
  walk("");
  return result;
}

const isPrefixOfRecorded = (files: Record<string, string>, folder: string): boolean =>
  Object.keys(files).some((path) => path.startsWith(`${folder}/`));

/** Checks that `rel` is a plain relative path inside a folder (no `..`, no absolute path, no empty part). */
export function assertInside(rel: string): void {
  const parts = rel.split("/");
  if (rel === "" || rel === MANIFEST || rel.startsWith("/") || parts.some((p) => p === "" || p === "." || p === ".."))
    throw new Error(`not a plain relative path inside a folder: "${rel}"`);
}

const besidePattern = (target: string, what: "staging" | "previous"): RegExp =>
  new RegExp(`^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.seamlab-${what}-(\\d+)-[0-9a-f]{8}$`);

const besidePath = (target: string, what: "staging" | "previous"): string =>
  join(dirname(target), `.${basename(target)}.seamlab-${what}-${process.pid}-${randomBytes(4).toString("hex")}`);

/**
 * Writes `files` and their manifest (`extra` adds fields to it) into a new staging folder beside `target`, and
 * returns its path. The manifest is written first, so that the staging folder of a process killed meanwhile can be
 * removed by its names.
 */
export function writeStaged(
  target: string,
  files: ReadonlyMap<string, string | Uint8Array>,
  extra: { seamlab: string } & Record<string, unknown>,
): string {
  const hashes: Record<string, string> = {};
  for (const [rel, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    assertInside(rel);
    hashes[rel] = sha256(content);
  }
  mkdirSync(dirname(resolve(target)), { recursive: true });
  const staging = besidePath(resolve(target), "staging");
  try {
    mkdirSync(staging);
    writeFileSync(join(staging, MANIFEST), JSON.stringify({ ...extra, files: hashes }, null, 1) + "\n");
    for (const [rel, content] of files) {
      mkdirSync(dirname(join(staging, rel)), { recursive: true });
      writeFileSync(join(staging, rel), content);
    }
  } catch (error) {
    // a failed write leaves nothing behind: a full disk must not stay full with half a folder
    rmSync(staging, { recursive: true, force: true });
    if (!isDiskFull(error)) throw error;
    throw diskFullError({
      path: resolve(target),
      operation: `writing ${basename(target)} into a staging folder beside it`,
      needs: [...files.values()].reduce((sum, content) => sum + Buffer.byteLength(content), 0),
      cleaned: "the partly written staging folder was removed at once",
      advice: "delete files you no longer need on that disk (old reports, the cache folder), or write elsewhere",
    });
  }
  return staging;
}

/**
 * Switches `staging` in as `target`: the old target is renamed aside first (its path is returned), then staging
 * takes its name. `step` is called after each rename (fault injection in tests).
 */
export function swapIn(staging: string, target: string, step: (name: "moved-aside" | "switched") => void = () => {}) {
  let aside: string | undefined;
  if (lstatOrUndefined(target)) {
    aside = besidePath(resolve(target), "previous");
    renameSync(target, aside);
    step("moved-aside");
  }
  renameSync(staging, target);
  step("switched");
  return aside;
}

/**
 * Removes a folder of `kind` file by file: each file whose content still matches the manifest, then the folders left
 * empty, the manifest and the folder itself. With `secondNamesIn`, a file or link that is the very same inode as the
 * entry at the same path there is removed too (a second name of a file still there: nothing is lost). Returns the
 * absolute paths of what was kept (edited or foreign); the folder stays while it holds any.
 */
export function removeOwned(dir: string, kind: string, secondNamesIn?: string): string[] {
  const manifest = readFolderManifest(dir, kind);
  const { ours, edited, foreign } = ownershipOf(dir, manifest);
  for (const rel of ours) unlinkSync(join(dir, rel));
  return removeUnlessKept(dir, [...edited, ...foreign], secondNamesIn);
}

/** Removes each of `rels` that is a second name of the same path in `secondNamesIn`, then what is left empty. */
function removeUnlessKept(dir: string, rels: string[], secondNamesIn: string | undefined): string[] {
  const kept: string[] = [];
  for (const rel of rels) {
    if (secondNamesIn !== undefined && sameInode(join(dir, rel), join(secondNamesIn, rel))) unlinkSync(join(dir, rel));
    else kept.push(join(dir, rel));
  }
  removeEmptyFolders(dir, kept.length === 0);
  return kept;
}

function sameInode(a: string, b: string): boolean {
  const one = lstatOrUndefined(a);
  const two = lstatOrUndefined(b);
  return one !== undefined && two !== undefined && !one.isDirectory() && one.ino === two.ino && one.dev === two.dev;
}

/** Removes the empty folders under `dir` (deepest first), and `dir` itself with its manifest when `whole`. */
function removeEmptyFolders(dir: string, whole: boolean): void {
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (!lstatSync(path).isDirectory()) continue;
      walk(path);
      if (readdirSync(path).length === 0) rmdirSync(path);
    }
  };
  walk(dir);
  if (!whole) return;
  if (lstatOrUndefined(join(dir, MANIFEST))?.isFile()) unlinkSync(join(dir, MANIFEST));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}

/**
 * Cleans up after processes that were killed while switching `target`: a folder set aside is put back when the
 * target is missing (the kill fell between the two renames), else removed as `removeOwned` does; a staging folder
 * loses every file its manifest names (it was created under a name only its process knew; a file it names may be
 * half-written, so its hash cannot be checked). In both, a second name of a file still in the target (a user's
 * file carried over as a hard link) goes too. `clean` first removes what the caller owns in a folder set aside
 * beyond the manifest (a report's `.failed/`). Returns how many were removed or put back, what was kept, and the
 * folder put back, if one was.
 */
export function recoverBeside(
  target: string,
  kind: string,
  clean: (aside: string) => void = () => {},
): { changed: number; kept: string[]; restored?: string } {
  const path = resolve(target);
  const parent = dirname(path);
  let names: string[];
  try {
    names = readdirSync(parent).sort();
  } catch {
    return { changed: 0, kept: [] };
  }
  let changed = 0;
  let restored: string | undefined;
  const kept: string[] = [];
  const previous = besidePattern(path, "previous");
  const staging = besidePattern(path, "staging");
  for (const name of names) {
    const match = previous.exec(name) ?? staging.exec(name);
    if (!match || processAlive(Number(match[1])) || !lstatOrUndefined(join(parent, name))?.isDirectory()) continue;
    const dir = join(parent, name);
    changed++;
    if (previous.test(name) && !lstatOrUndefined(path)) {
      renameSync(dir, path);
      restored = dir;
    } else if (previous.test(name)) {
      clean(dir);
      kept.push(...removeOwned(dir, kind, path));
    } else kept.push(...removeStaging(dir, kind, path));
  }
  return { changed, kept, ...(restored ? { restored } : {}) };
}

/**
 * The folder `recoverBeside` will put back as `target`, when `target` is missing and a process that is gone set it
 * aside (killed in the instant between `swapIn`'s two renames); else undefined. Read only: a check before any work
 * judges what the folder will hold.
 */
export function pendingRestore(target: string): string | undefined {
  const path = resolve(target);
  if (lstatOrUndefined(path)) return undefined;
  const previous = besidePattern(path, "previous");
  let names: string[];
  try {
    names = readdirSync(dirname(path)).sort();
  } catch {
    return undefined;
  }
  const name = names.find((candidate) => {
    const match = previous.exec(candidate);
    return (
      match !== null &&
      !processAlive(Number(match[1])) &&
      lstatOrUndefined(join(dirname(path), candidate))?.isDirectory() === true
    );
  });
  return name === undefined ? undefined : join(dirname(path), name);
}

function removeStaging(dir: string, kind: string, target: string): string[] {
  const manifest = readFolderManifest(dir, kind);
  for (const rel of Object.keys(manifest?.files ?? {})) {
    if (!rel.split("/").includes("..") && lstatOrUndefined(join(dir, rel))?.isFile()) unlinkSync(join(dir, rel));
  }
  const { foreign, edited } = ownershipOf(dir, manifest);
  return removeUnlessKept(dir, [...edited, ...foreign], target);
}

/** `path` with symbolic links resolved, also when it does not exist yet (its nearest existing folder is resolved). */
export function realPathOfNew(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(realPathOfNew(parent), basename(absolute));
}

/** True when `a` and `b` are the same folder or one holds the other (compared after resolving symlinks). */
export function foldersOverlap(a: string, b: string): boolean {
  const inside = (child: string, parent: string) => {
    const rel = relative(parent, child);
    return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  };
  return inside(a, b) || inside(b, a);
}
