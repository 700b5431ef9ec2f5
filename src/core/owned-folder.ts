// A folder seamlab writes whole (a report, a corpus): plain files plus `.seamlab-manifest.json` with each file's
// sha256, the proof a file is seamlab's before deleting it. A new version is staged beside the target and switched in
// by two renames (a kill between them leaves no target: `recoverBeside` puts it back); the old one is then removed
// file by file against its hashes. A file someone edited or added is never deleted but returned, to say where it is.
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
import { namesLeftByGone } from "./atomic-write";
import { diskFullError, isDiskFull } from "./disk-full";

export const MANIFEST = ".seamlab-manifest.json";

export interface FolderManifest {
  /** What wrote the folder ("report", "corpus"): a folder of one kind is never taken for another. */
  seamlab: string;
  /** sha256 (hex) by `/`-separated path relative to the folder. */
  files: Record<string, string>;
}

/** The first five names and how many more, for an error message. */
export const firstFive = (items: readonly string[]): string =>
  items.slice(0, 5).join(", ") + (items.length > 5 ? `, and ${items.length - 5} more` : "");

export const sha256 = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

export function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

export function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The folder's manifest when it is one of `kind`'s, else undefined. */
export function readFolderManifest<M extends FolderManifest = FolderManifest>(
  dir: string,
  kind: string,
): M | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Partial<M> | null;
    const ok = parsed?.seamlab === kind && typeof parsed.files === "object" && parsed.files !== null;
    return ok ? (parsed as M) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sorts every entry under `dir` (paths relative to it, the manifest left out) into `ours` (the recorded hash),
 * `edited` (named by the manifest, changed since) and `foreign` (files, links and folders it does not name).
 */
export function ownershipOf(dir: string, manifest: FolderManifest | undefined) {
  const result = { ours: [] as string[], edited: [] as string[], foreign: [] as string[] };
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

function assertInside(rel: string): void {
  const parts = rel.split("/");
  if (rel === "" || rel === MANIFEST || rel.startsWith("/") || parts.some((p) => p === "" || p === "." || p === ".."))
    throw new Error(`not a plain relative path inside a folder: "${rel}"`);
}

const besidePattern = (target: string, what: "staging" | "previous"): RegExp =>
  new RegExp(`^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.seamlab-${what}-(\\d+)-[0-9a-f]{8}$`);

const besidePath = (target: string, what: "staging" | "previous"): string =>
  join(dirname(target), `.${basename(target)}.seamlab-${what}-${process.pid}-${randomBytes(4).toString("hex")}`);

/**
 * Writes `files` and their manifest (plus `extra`) into a new staging folder beside `target`; returns its path. The
 * manifest goes first, so a killed process's staging folder can be removed by its names.
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
    rmSync(staging, { recursive: true, force: true }); // a full disk must not stay full with half a folder
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

/** Switches `staging` in as `target`, the old target renamed aside first (returned); `step` follows each rename. */
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
 * Removes a folder of `kind` file by file (what still matches the manifest, or with `unchecked` every file it names,
 * then empty folders), plus any entry that is a second name (same inode) of the same path in `secondNamesIn`.
 * Returns the absolute paths of what was kept.
 */
export function removeOwned(dir: string, kind: string, secondNamesIn?: string, unchecked = false): string[] {
  const manifest = readFolderManifest(dir, kind);
  for (const rel of unchecked ? Object.keys(manifest?.files ?? {}) : []) {
    if (!rel.split("/").includes("..") && lstatOrUndefined(join(dir, rel))?.isFile()) unlinkSync(join(dir, rel));
  }
  const { ours, edited, foreign } = ownershipOf(dir, manifest);
  for (const rel of ours) unlinkSync(join(dir, rel));
  const kept: string[] = [];
  for (const rel of [...edited, ...foreign]) {
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
 * Cleans up after processes killed while switching `target`: a folder set aside is put back when the target is
 * missing, else removed as `removeOwned` does (after `clean`, for what the caller owns beyond the manifest); a
 * staging folder loses every file its manifest names, unchecked (one may be half-written).
 */
export function recoverBeside(
  target: string,
  kind: string,
  clean: (aside: string) => void = () => {},
): { changed: number; kept: string[]; restored?: string } {
  const path = resolve(target);
  const previous = besidePattern(path, "previous");
  const left = leftBeside(path, previous, besidePattern(path, "staging"));
  let restored: string | undefined;
  const kept: string[] = [];
  for (const name of left) {
    const dir = join(dirname(path), name);
    if (previous.test(name) && !lstatOrUndefined(path)) {
      renameSync(dir, path);
      restored = dir;
    } else if (previous.test(name)) {
      clean(dir);
      kept.push(...removeOwned(dir, kind, path));
    } else kept.push(...removeOwned(dir, kind, path, true));
  }
  return { changed: left.length, kept, ...(restored ? { restored } : {}) };
}

/** Folders beside `path` named by one of `patterns` whose process is gone, by name. */
const leftBeside = (path: string, ...patterns: RegExp[]): string[] =>
  namesLeftByGone(dirname(path), ...patterns).filter((name) =>
    lstatOrUndefined(join(dirname(path), name))?.isDirectory(),
  );

/** The folder `recoverBeside` will put back as `target`, if any (read only: a check before any work). */
export function pendingRestore(target: string): string | undefined {
  const path = resolve(target);
  if (lstatOrUndefined(path)) return undefined;
  const name = leftBeside(path, besidePattern(path, "previous"))[0];
  return name === undefined ? undefined : join(dirname(path), name);
}

/** `path` with symbolic links resolved, also when it does not exist yet. */
export function realPathOfNew(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(realPathOfNew(parent), basename(absolute));
}

/** True when `a` and `b` (real paths) are the same folder or one holds the other. */
export function foldersOverlap(a: string, b: string): boolean {
  const inside = (child: string, parent: string) => {
    const rel = relative(parent, child);
    return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  };
  return inside(a, b) || inside(b, a);
}
