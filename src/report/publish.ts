// Publishing a report into `--out` X: seamlab never destroys a file it did not write, a reader never sees two runs
// mixed, and X is plain files (pages, executed notebooks, index) plus `.seamlab-manifest.json` (each file's sha256,
// the proof a file is ours) and `.failed/` (the pages of the last failed run). A new report is staged beside X and
// switched in by renaming (core/owned-folder.ts). Anything else in X is the user's: never deleted or overwritten,
// and `--force` is needed to write beside it (it is carried into each new X as hard links).
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
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { writeFileAtomic } from "../core/atomic-write";
import { SeamlabError } from "../core/errors";
import { lockOutput } from "../core/output-lock";
import {
  firstFive,
  lstatOrUndefined,
  MANIFEST,
  ownershipOf,
  pendingRestore,
  readFolderManifest,
  realpathOrSelf,
  recoverBeside,
  removeOwned,
  sha256,
  swapIn,
  writeStaged,
  type FolderManifest,
} from "../core/owned-folder";
import type { IndexPage } from "./index-page";

export const FAILED_DIR = ".failed";
const FAILED_MANIFEST = ".seamlab-failed.json";
const KIND = "report";

export type RunInfo = NonNullable<IndexPage["run"]>;

export type PageEntry = IndexPage & { run: RunInfo };

export type RunManifest = FolderManifest & { seamlab: "report"; run: RunInfo; pages: PageEntry[] };

export function newRunInfo(corpus: string, now = new Date()): RunInfo {
  const stamp = now.toISOString().replace(/[-:]|\.\d+(?=Z$)/g, "");
  return { id: `${stamp}-${process.pid}-${randomBytes(4).toString("hex")}`, generatedAt: now.toISOString(), corpus };
}

/** Announced on the channel as reached: the crash tests' preload (test/helpers/publish-faults.mjs) listens. */
export const PUBLISH_STEPS = ["staged", "moved-aside", "switched", "pruned"] as const;
type Step = (typeof PUBLISH_STEPS)[number];
export const PUBLISH_STEP_CHANNEL = "seamlab:report-publish-step";
const stepChannel = channel(PUBLISH_STEP_CHANNEL);

const reached = (step: Step) => stepChannel.publish(step);

/** The `.failed` folder is ours when its manifest lists every file in it, each a regular file with its hash. */
function isOurFailedDir(failedDir: string): boolean {
  if (!lstatOrUndefined(failedDir)?.isDirectory()) return false;
  let files: Record<string, unknown>;
  try {
    files = JSON.parse(readFileSync(join(failedDir, FAILED_MANIFEST), "utf8")).files;
  } catch {
    return false;
  }
  if (typeof files !== "object" || files === null) return false;
  const matches = (name: string) =>
    lstatOrUndefined(join(failedDir, name))?.isFile() && sha256(readFileSync(join(failedDir, name))) === files[name];
  return readdirSync(failedDir).every(
    (name) => name === FAILED_MANIFEST || (typeof files[name] === "string" && matches(name)),
  );
}

export function readPublished(outDir: string): RunManifest | undefined {
  const manifest = readFolderManifest<RunManifest>(outDir, KIND);
  return manifest && Array.isArray(manifest.pages) ? manifest : undefined;
}

/** The entries in `outDir` seamlab cannot prove it wrote (a page changed since it wrote it is the user's now). */
function foreignEntries(outDir: string): string[] {
  const { foreign, edited } = ownershipOf(outDir, readPublished(outDir));
  return [...foreign, ...edited].filter((name) => !(name === FAILED_DIR && isOurFailedDir(join(outDir, name)))).sort();
}

/** " (index.html was changed after seamlab wrote it)", for the pages among `names` that were. */
function editedNote(outDir: string, names: string[]): string {
  const edited = ownershipOf(outDir, readPublished(outDir)).edited.filter((name) => names.includes(name));
  if (edited.length === 0) return "";
  return ` (${firstFive(edited)} ${edited.length > 1 ? "were" : "was"} changed after seamlab wrote ${edited.length > 1 ? "them" : "it"})`;
}

/** Takes the lock on the report folder `outDir` until this process exits; returns its release. */
export function lockOutDir(outDir: string): () => void {
  return lockOutput(outDir, { flag: "--out", command: "report", kind: "folder" });
}

function assertWritable(folder: string, what: string): void {
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new SeamlabError(`${what} is not writable; choose another folder.`);
  }
}

/**
 * Checks, before any notebook runs, that a report with these file names can be written into `outDir`: refuses a file
 * in the way, a folder holding what seamlab did not write (unless `force`), and even with `force` a name clash with
 * such a file or a folder of the user's (the report folder is switched whole).
 */
export function checkOutDir(outDir: string, names: readonly string[], { force = false } = {}): void {
  const flag = "--out";
  const target = resolve(outDir);
  const stat = lstatOrUndefined(target);
  let parent = dirname(target);
  while (!existsSync(parent)) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) throw new SeamlabError(`${flag} ${outDir}: ${parent} is a file, not a folder.`);
  // The report is staged beside the folder and renamed into place: the folder holding it must be writable.
  assertWritable(parent, `${flag} ${outDir}: cannot ${stat ? "replace" : "create"} it, as ${parent}`);
  if (stat === undefined) {
    // A run killed between the two renames of a switch left the previous report beside the folder, and this run
    // puts it back first (cleanStale): judge what it holds.
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

/** `checkOutDir`'s refusals of what `target` holds, in the words of `label` ("--out reports"). */
function checkUserEntries(target: string, label: string, names: readonly string[], force: boolean): void {
  const foreign = foreignEntries(target);
  if (foreign.length === 0) return;
  if (!force) {
    throw new SeamlabError(
      `${label} holds files seamlab did not write ` +
        `(${firstFive(foreign)})${editedNote(target, foreign)}; choose an empty or new folder, or pass ` +
        `--force to write the report beside them (they are left as they are).`,
    );
  }
  const clash = foreign.filter((name) => names.includes(name) || name === FAILED_DIR || name === MANIFEST);
  if (clash.length > 0) {
    throw new SeamlabError(
      `${label}: ${firstFive(clash)} would be replaced by the report ` +
        `but seamlab did not write ${clash.length > 1 ? "them" : "it"}${editedNote(target, clash)}; ` +
        `move ${clash.length > 1 ? "them" : "it"} away or choose another ` +
        `folder (--force never overwrites a file seamlab did not write).`,
    );
  }
  const folders = foreign.filter((name) => lstatSync(join(target, name)).isDirectory());
  if (folders.length > 0) {
    throw new SeamlabError(
      `${label}: the report folder is replaced whole at each run, and the folder${folders.length > 1 ? "s" : ""} ` +
        `${firstFive(folders)} in it cannot be carried over; move ${folders.length > 1 ? "them" : "it"} out or choose ` +
        `another folder (--force writes beside your files, not beside your folders).`,
    );
  }
}

/** Removes interrupted runs' leftovers (or puts a report set aside back); returns how many were removed or put back. */
export function cleanStale(outDir: string, log: (line: string) => void = () => {}): number {
  const { changed, restored } = recoverBeside(outDir, KIND, (aside) => clearFailedPages(aside));
  if (restored !== undefined)
    log(
      `put the previous report back into ${outDir}: a run killed while switching it in had set it aside as ${restored}`,
    );
  return changed;
}

/**
 * Publishes a complete report (call checkOutDir first): staged beside `outDir` with the user's own files linked in,
 * switched in by renaming, the previous report then removed file by file. Returns the paths of the previous
 * report's files that could not be proven seamlab's, kept where it was set aside.
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
  if (aside !== undefined) clearFailedPages(aside);
  const kept = aside === undefined ? [] : removeOwned(aside, KIND, target);
  reached("pruned");
  return kept;
}

/** Writes a failed run's pages into `outDir/.failed/` (the previous ones checked by hash, then replaced). */
export function writeFailedPages(outDir: string, files: Map<string, string | Buffer>): string[] {
  const dir = join(resolve(outDir), FAILED_DIR);
  if (existsSync(dir)) {
    if (!isOurFailedDir(dir)) throw new SeamlabError(`--out: ${dir} was not written by seamlab; it was left alone.`);
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  const hashes: Record<string, string> = {};
  for (const [name, content] of files) {
    writeFileAtomic(join(dir, name), content);
    hashes[name] = sha256(content);
  }
  const manifest = { seamlab: "failed-report", files: hashes };
  writeFileAtomic(join(dir, FAILED_MANIFEST), JSON.stringify(manifest, null, 1) + "\n");
  return [...files.keys()].map((name) => join(dir, name));
}

/** Removes `.failed/` after a run that succeeded (only when every file in it is as seamlab wrote it). */
export function clearFailedPages(outDir: string): void {
  const dir = join(resolve(outDir), FAILED_DIR);
  if (isOurFailedDir(dir)) rmSync(dir, { recursive: true, force: true });
}
