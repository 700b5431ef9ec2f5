/**
 * Publishing a report into `--out` so that seamlab never destroys a file it did not write, a reader never sees two
 * runs mixed, and the published folder is plain files that survive `cp -r`, `zip -r` and upload tools:
 *
 *   X/                        the published report: pages, executed notebooks and index as plain files, plus
 *   X/.seamlab-manifest.json  the sha256 of every file (the proof that a file is ours when it is time to delete it)
 *   X/.failed/                the pages of the last run that failed, beside the untouched published report
 *
 * A new report is written whole into a staging folder beside X and switched in by renaming (core/owned-folder.ts):
 * X is renamed aside, the staging folder takes its name, and the old report is removed file by file, each checked
 * against its hash. A page changed since seamlab wrote it is the user's: it is never replaced or moved (checkOutDir
 * refuses it by name). A run is never published half: a crash leaves the old report or the new one (or, killed in the instant
 * between the two renames, the old one whole beside X, put back by the next run).
 *
 * Anything else in X belongs to the user: it is never deleted or overwritten, and its presence means `--force` is
 * needed to write a report beside it at all. With `--force`, the user's files are carried into each new X as second
 * names (hard links) of the very same files; a folder of the user's cannot be carried and is refused.
 * Two reports into one X at once are refused by a lock (core/output-lock.ts).
 */
import { channel } from "node:diagnostics_channel";
import { randomBytes } from "node:crypto";
import {
  accessSync,
  constants,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { writeFileAtomic } from "../core/atomic-write";
import { SeamlabError } from "../core/errors";
import { lockOutput } from "../core/output-lock";
import {
  MANIFEST,
  ownershipOf,
  pendingRestore,
  readFolderManifest,
  recoverBeside,
  removeOwned,
  sha256,
  swapIn,
  writeStaged,
} from "../core/owned-folder";
import type { HeadlinePayload, RecommendationPayload } from "../notebook/mime";
export const FAILED_DIR = ".failed";
const FAILED_MANIFEST = ".seamlab-failed.json";
const KIND = "report";

/** What the index needs to list a page, and which run produced it. */
export interface PageEntry {
  name: string;
  title: string;
  status: "ok" | "error" | "saved";
  failure?: string;
  headlines: HeadlinePayload[];
  /** The page's recommendation, which the index leads with ("Do this"). */
  recommendation?: RecommendationPayload;
  charts: number;
  tables: number;
  durationMs?: number;
  run: RunInfo;
}

export interface RunInfo {
  id: string;
  generatedAt: string;
  corpus: string;
}

export interface RunManifest {
  seamlab: "report";
  run: RunInfo;
  /** sha256 (hex) of every file of the run, by name. */
  files: Record<string, string>;
  pages: PageEntry[];
}

export function newRunInfo(corpus: string, now = new Date()): RunInfo {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return { id: `${stamp}-${process.pid}-${randomBytes(4).toString("hex")}`, generatedAt: now.toISOString(), corpus };
}

// ---------------------------------------------------------------- the steps, announced

/**
 * The steps of a publish, in order. Each is announced on the `PUBLISH_STEP_CHANNEL` diagnostics channel as it is
 * reached; nothing listens in seamlab (publishing to no subscriber costs nothing). The crash tests' preload,
 * test/helpers/publish-faults.mjs, listens there to kill or slow the process at a step.
 */
export const PUBLISH_STEPS = ["staged", "moved-aside", "switched", "pruned"] as const;
type Step = (typeof PUBLISH_STEPS)[number];
export const PUBLISH_STEP_CHANNEL = "seamlab:report-publish-step";
const stepChannel = channel(PUBLISH_STEP_CHANNEL);

function reached(step: Step): void {
  stepChannel.publish(step);
}

// ---------------------------------------------------------------- what is ours

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** True when `path` is a regular file whose content hashes to `hash` (the manifest alone proves nothing). */
function fileMatches(path: string, hash: string): boolean {
  const stat = lstatOrUndefined(path);
  return stat !== undefined && stat.isFile() && sha256(readFileSync(path)) === hash;
}

/** The `.failed` folder is ours when its manifest lists every file in it with a matching hash. */
function isOurFailedDir(failedDir: string): boolean {
  const stat = lstatOrUndefined(failedDir);
  if (!stat || !stat.isDirectory()) return false;
  const manifest = readJson(join(failedDir, FAILED_MANIFEST)) as { files?: Record<string, string> } | undefined;
  if (!manifest || typeof manifest.files !== "object" || manifest.files === null) return false;
  const files = manifest.files;
  return readdirSync(failedDir).every(
    (name) =>
      name === FAILED_MANIFEST || (typeof files[name] === "string" && fileMatches(join(failedDir, name), files[name])),
  );
}

/** The report's own manifest in `outDir`, when there is one (pages as plain files). */
function readReportManifest(outDir: string): RunManifest | undefined {
  const manifest = readFolderManifest<RunManifest>(outDir, KIND);
  return manifest && Array.isArray(manifest.pages) ? manifest : undefined;
}

/** The published report's folder and manifest, when `outDir` holds a report of ours. */
export function readPublished(outDir: string): { dir: string; manifest: RunManifest } | undefined {
  const manifest = readReportManifest(outDir);
  return manifest ? { dir: resolve(outDir), manifest } : undefined;
}

/**
 * The entries directly in `outDir` that seamlab cannot prove it wrote: anything but the report's pages as it wrote
 * them (a page changed since is the user's now), its manifest and its `.failed/`.
 */
function foreignEntries(outDir: string): string[] {
  const { foreign, edited } = ownershipOf(outDir, readReportManifest(outDir));
  return [...foreign, ...edited].filter((name) => !(name === FAILED_DIR && isOurFailedDir(join(outDir, name)))).sort();
}

/** " (index.html was changed after seamlab wrote it)", for the pages among `names` that were. */
function editedNote(outDir: string, names: string[]): string {
  const edited = ownershipOf(outDir, readReportManifest(outDir)).edited.filter((name) => names.includes(name));
  if (edited.length === 0) return "";
  return ` (${list(edited)} ${edited.length > 1 ? "were" : "was"} changed after seamlab wrote ${edited.length > 1 ? "them" : "it"})`;
}

// ---------------------------------------------------------------- checks before any work

/** Takes the lock on the report folder `outDir` until this process exits (core/output-lock.ts); returns its release. */
export function lockOutDir(outDir: string, flag = "--out"): () => void {
  return lockOutput(outDir, { flag, command: "report", kind: "folder" });
}

function assertWritable(folder: string, what: string): void {
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new SeamlabError(`${what} is not writable; choose another folder.`);
  }
}

const list = (items: string[]) =>
  items.slice(0, 5).join(", ") + (items.length > 5 ? `, and ${items.length - 5} more` : "");

/**
 * Checks that a report with these file names can be written into `outDir`, before any notebook runs. Refuses a
 * file in the way, a non-empty folder that is not a seamlab report (unless `force`), and, even with `force`, a
 * name clash with a file seamlab did not write or a folder of the user's (the report folder is switched whole).
 */
export function checkOutDir(outDir: string, names: readonly string[], { force = false, flag = "--out" } = {}): void {
  const target = resolve(outDir);
  const stat = lstatOrUndefined(target);
  let parent = dirname(target);
  while (!existsSync(parent)) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) throw new SeamlabError(`${flag} ${outDir}: ${parent} is a file, not a folder.`);
  // The report is staged beside the folder and renamed into place: the folder holding it must be writable.
  assertWritable(parent, `${flag} ${outDir}: cannot ${stat ? "replace" : "create"} it, as ${parent}`);
  if (stat === undefined) {
    // Killed in the instant between the two renames of a switch, the previous report stands whole beside the folder
    // and this run puts it back first (cleanStale): judge what it holds, as if it were back already.
    const restoring = pendingRestore(target);
    const label =
      `${flag} ${outDir} (its previous report, set aside as ${restoring} by a run killed while switching it, ` +
      `is put back first)`;
    if (restoring !== undefined) checkUserEntries(restoring, label, names, force);
    return;
  }
  const cwdInside = relative(realpathOrSelf(target), realpathOrSelf(process.cwd()));
  if (stat.isDirectory() && !cwdInside.startsWith("..") && !isAbsolute(cwdInside)) {
    // Switching the report folder renames it: the current folder would move away under the shell that is in it.
    throw new SeamlabError(
      `${flag} ${outDir} is the current folder or holds it; the report folder is replaced whole at each run, ` +
        `so give a folder below the current one (e.g. ${flag} reports).`,
    );
  }
  if (stat.isSymbolicLink()) {
    // The report folder is switched by renaming: renaming a link would replace the link, not the folder it names.
    throw new SeamlabError(
      `${flag} ${outDir} is a symbolic link; give the folder it points to (${realpathOrSelf(target)}) instead.`,
    );
  }
  if (!stat.isDirectory()) {
    throw new SeamlabError(`${flag} ${outDir} is a file; give a folder for the report (it is created if missing).`);
  }
  assertWritable(target, `${flag} ${outDir}`);
  checkUserEntries(target, `${flag} ${outDir}`, names, force);
}

/**
 * Refuses, in the words of `label` ("--out reports"), a report folder `target` holding what seamlab did not write
 * (without `force`), and, even with it, such a file where the report writes one, or a folder of the user's.
 */
function checkUserEntries(target: string, label: string, names: readonly string[], force: boolean): void {
  const foreign = foreignEntries(target);
  if (foreign.length === 0) return;
  if (!force) {
    throw new SeamlabError(
      `${label} holds files seamlab did not write ` +
        `(${list(foreign)})${editedNote(target, foreign)}; choose an empty or new folder, or pass ` +
        `--force to write the report beside them (they are left as they are).`,
    );
  }
  const clash = foreign.filter((name) => names.includes(name) || name === FAILED_DIR || name === MANIFEST);
  if (clash.length > 0) {
    throw new SeamlabError(
      `${label}: ${list(clash)} would be replaced by the report ` +
        `but seamlab did not write ${clash.length > 1 ? "them" : "it"}${editedNote(target, clash)}; ` +
        `move ${clash.length > 1 ? "them" : "it"} away or choose another ` +
        `folder (--force never overwrites a file seamlab did not write).`,
    );
  }
  const folders = foreign.filter((name) => lstatSync(join(target, name)).isDirectory());
  if (folders.length > 0) {
    throw new SeamlabError(
      `${label}: the report folder is replaced whole at each run, and the folder${folders.length > 1 ? "s" : ""} ` +
        `${list(folders)} in it cannot be carried over; move ${folders.length > 1 ? "them" : "it"} out or choose ` +
        `another folder (--force writes beside your files, not beside your folders).`,
    );
  }
}

// ---------------------------------------------------------------- cleaning up after crashes

/**
 * Removes what interrupted runs left behind: staging folders of dead processes, a report set aside and not yet
 * removed (or put back, when the run was killed between the two renames). Returns how many were removed or put
 * back; `log` is told when a report is put back.
 */
export function cleanStale(outDir: string, log: (line: string) => void = () => {}): number {
  const { changed, restored } = recoverBeside(outDir, KIND, (aside) => clearFailedPages(aside));
  if (restored !== undefined)
    log(
      `put the previous report back into ${outDir}: a run killed while switching it in had set it aside as ${restored}`,
    );
  return changed;
}

// ---------------------------------------------------------------- publishing

/**
 * Publishes a complete report: every file (and its manifest) is written into a staging folder beside `outDir`,
 * the user's own files in `outDir` (allowed by checkOutDir's `force`) are linked into it, and it is switched in by
 * renaming; the previous report is then removed file by file. Returns the paths of files that could not be proven
 * seamlab's there, kept where the previous report was set aside, for the caller to name. Call checkOutDir first.
 */
export function publishReport(
  outDir: string,
  files: Map<string, string | Buffer>,
  run: RunInfo,
  pages: PageEntry[],
): string[] {
  const target = resolve(outDir);
  for (const name of files.keys()) {
    if (name !== basename(name) || name.startsWith(".") || name === "")
      throw new Error(`report file name must be a plain file name: "${name}"`);
  }
  const carried = existsSync(target) ? foreignEntries(target) : [];
  const staging = writeStaged(target, files, { seamlab: KIND, run, pages });
  try {
    for (const name of carried) {
      if (files.has(name) || lstatSync(join(target, name)).isDirectory())
        throw new SeamlabError(`--out: ${join(target, name)} appeared while the report ran; it was left alone.`);
      linkSync(join(target, name), join(staging, name));
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  reached("staged");
  const aside = swapIn(staging, target, reached);
  if (aside === undefined) {
    reached("pruned");
    return [];
  }
  clearFailedPages(aside);
  const kept = removeOwned(aside, KIND, target);
  reached("pruned");
  return kept;
}

/**
 * Writes the pages of a failed run into `outDir/.failed/` (replacing the previous failed pages, which are
 * checked against their recorded hashes first) and returns the paths written. The published report is untouched.
 */
export function writeFailedPages(outDir: string, files: Map<string, string | Buffer>): string[] {
  const dir = join(resolve(outDir), FAILED_DIR);
  if (existsSync(dir)) {
    if (!isOurFailedDir(dir)) throw new SeamlabError(`--out: ${dir} was not written by seamlab; it was left alone.`);
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  const hashes: Record<string, string> = {};
  const written: string[] = [];
  for (const [name, content] of files) {
    writeFileAtomic(join(dir, name), content);
    hashes[name] = sha256(content);
    written.push(join(dir, name));
  }
  writeFileAtomic(
    join(dir, FAILED_MANIFEST),
    JSON.stringify({ seamlab: "failed-report", files: hashes }, null, 1) + "\n",
  );
  return written;
}

/** Removes `.failed/` after a run that succeeded (only when every file in it is as seamlab wrote it). */
export function clearFailedPages(outDir: string): void {
  const dir = join(resolve(outDir), FAILED_DIR);
  if (isOurFailedDir(dir)) rmSync(dir, { recursive: true, force: true });
}
