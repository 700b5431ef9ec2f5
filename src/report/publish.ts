/**
 * Publishing a report into `--out` so that seamlab never destroys a file it did not write and a reader never sees
 * two runs mixed. The folder looks like this:
 *
 *   X/.seamlab/runs/<run>/    one whole report per run: pages, executed notebooks, index, and manifest.json with
 *                             the sha256 of every file (the proof that a file is ours when it is time to delete it)
 *   X/.seamlab/current        symlink to runs/<run>: the published report. Switching runs is one rename of a new
 *                             symlink over this one, so a crash at any instant leaves the old report or the new one
 *   X/<file>                  symlink to .seamlab/current/<file>, for every file of the report (index.html, ...)
 *   X/.failed/                the pages of the last run that failed, beside the untouched published report
 *
 * Anything else in X belongs to the user: it is never deleted or overwritten, and its presence means `--force` is
 * needed to write a report beside it at all.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { processAlive, writeFileAtomic } from "../core/atomic-write";
import { SeamlabError } from "../core/errors";
import type { HeadlinePayload } from "../notebook/mime";

export const STATE_DIR = ".seamlab";
export const FAILED_DIR = ".failed";
const MANIFEST = "manifest.json";
const FAILED_MANIFEST = ".seamlab-failed.json";
const RUN_NAME = /^\d{8}T\d{6}Z-\d+-[0-9a-f]{8}$/;
const STAGING_NAME = /^staging-(\d+)-[0-9a-f]{8}$/;
const LINK_TEMP_NAME = /^current\.(\d+)-[0-9a-f]{8}\.tmp$/;

/** What the index needs to list a page, and which run produced it. */
export interface PageEntry {
  name: string;
  title: string;
  status: "ok" | "error" | "saved";
  failure?: string;
  headlines: HeadlinePayload[];
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

const sha256 = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

// ---------------------------------------------------------------- fault injection (tests only)

/** The steps of a publish, in order; SEAMLAB_REPORT_FAULT=<step> kills the process right after that step. */
export const PUBLISH_STEPS = ["staged", "run-in-place", "linked", "switched", "unlinked", "pruned"] as const;
type Step = (typeof PUBLISH_STEPS)[number];

function reached(step: Step): void {
  const delay = Number(process.env.SEAMLAB_REPORT_STEP_DELAY_MS ?? 0);
  if (delay > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);
  if (process.env.SEAMLAB_REPORT_FAULT === step) process.kill(process.pid, "SIGKILL");
}

// ---------------------------------------------------------------- what is ours

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** `X/<name>` is ours when it is a symlink pointing exactly at `.seamlab/current/<name>`. */
function isOurLink(outDir: string, name: string): boolean {
  const stat = lstatOrUndefined(join(outDir, name));
  return stat !== undefined && stat.isSymbolicLink() && readlinkSync(join(outDir, name)) === linkTarget(name);
}

const linkTarget = (name: string): string => `${STATE_DIR}/current/${name}`;

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

function readManifest(runDir: string): RunManifest | undefined {
  const parsed = readJson(join(runDir, MANIFEST)) as Partial<RunManifest> | undefined;
  if (!parsed || parsed.seamlab !== "report" || typeof parsed.files !== "object" || !Array.isArray(parsed.pages))
    return undefined;
  return parsed as RunManifest;
}

/** True when `path` is a regular file whose content hashes to `hash` (the manifest alone proves nothing). */
function fileMatches(path: string, hash: string): boolean {
  const stat = lstatOrUndefined(path);
  return stat !== undefined && stat.isFile() && sha256(readFileSync(path)) === hash;
}

/** The `.seamlab` folder is ours when it holds nothing but what this module writes there. */
function isOurStateDir(stateDir: string): boolean {
  const stat = lstatOrUndefined(stateDir);
  if (!stat || !stat.isDirectory()) return false;
  for (const name of readdirSync(stateDir)) {
    if (name === "runs") {
      if (!lstatOrUndefined(join(stateDir, name))?.isDirectory()) return false;
    } else if (name === "current") {
      const link = lstatOrUndefined(join(stateDir, name));
      if (!link?.isSymbolicLink() || !/^runs\/[^/]+$/.test(readlinkSync(join(stateDir, name)))) return false;
    } else if (!STAGING_NAME.test(name) && !LINK_TEMP_NAME.test(name)) return false;
  }
  return true;
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

/** The published run's folder and manifest, when `outDir` holds a report of ours. */
export function readPublished(outDir: string): { dir: string; manifest: RunManifest } | undefined {
  const stateDir = join(outDir, STATE_DIR);
  if (!isOurStateDir(stateDir) || !lstatOrUndefined(join(stateDir, "current"))) return undefined;
  const dir = join(stateDir, readlinkSync(join(stateDir, "current")));
  const manifest = readManifest(dir);
  return manifest ? { dir, manifest } : undefined;
}

// ---------------------------------------------------------------- checks before any work

function assertWritable(folder: string, what: string): void {
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new SeamlabError(`${what} is not writable; choose another folder.`);
  }
}

/**
 * Checks that a report with these file names can be written into `outDir`, before any notebook runs. Refuses a
 * file in the way, a non-empty folder that is not a seamlab report (unless `force`), and, even with `force`, a
 * name clash with a file seamlab did not write.
 */
export function checkOutDir(outDir: string, names: readonly string[], { force = false, flag = "--out" } = {}): void {
  const target = resolve(outDir);
  const stat = lstatOrUndefined(target);
  if (stat === undefined) {
    let parent = dirname(target);
    while (!existsSync(parent)) parent = dirname(parent);
    if (!statSync(parent).isDirectory())
      throw new SeamlabError(`${flag} ${outDir}: ${parent} is a file, not a folder.`);
    assertWritable(parent, `${flag} ${outDir}: cannot create it, as ${parent}`);
    return;
  }
  if (!statSync(target).isDirectory()) {
    throw new SeamlabError(`${flag} ${outDir} is a file; give a folder for the report (it is created if missing).`);
  }
  assertWritable(target, `${flag} ${outDir}`);
  const foreign = readdirSync(target)
    .filter((name) => {
      if (name === STATE_DIR) return !isOurStateDir(join(target, name));
      if (name === FAILED_DIR) return !isOurFailedDir(join(target, name));
      return !isOurLink(target, name);
    })
    .sort();
  if (foreign.length === 0) return;
  const list = (items: string[]) =>
    items.slice(0, 5).join(", ") + (items.length > 5 ? `, and ${items.length - 5} more` : "");
  if (!force) {
    // Reports of earlier seamlab versions recorded no hashes, so nothing proves those files are seamlab's.
    const legacy = foreign.includes(".seamlab-report.json")
      ? " It looks like a report of an earlier seamlab, which kept no checksums: delete it if it is one."
      : "";
    throw new SeamlabError(
      `${flag} ${outDir} holds files seamlab did not write ` +
        `(${list(foreign)}); choose an empty or new folder, or pass ` +
        `--force to write the report beside them (they are left as they are).${legacy}`,
    );
  }
  const clash = foreign.filter((name) => names.includes(name) || name === STATE_DIR || name === FAILED_DIR);
  if (clash.length > 0) {
    throw new SeamlabError(
      `${flag} ${outDir}: ${list(clash)} would be replaced by the report ` +
        `but seamlab did not write ${clash.length > 1 ? "them" : "it"}; ` +
        `move ${clash.length > 1 ? "them" : "it"} away or choose another ` +
        `folder (--force never overwrites a file seamlab did not write).`,
    );
  }
}

// ---------------------------------------------------------------- cleaning up after crashes

function removeOwnedRun(runDir: string): void {
  const manifest = readManifest(runDir);
  if (!manifest) return;
  let left = 0;
  for (const name of readdirSync(runDir)) {
    if (name === MANIFEST) continue;
    const hash = manifest.files[name];
    if (typeof hash === "string" && fileMatches(join(runDir, name), hash)) unlinkSync(join(runDir, name));
    else left++;
  }
  if (left > 0) return; // someone put or changed a file here: keep the folder
  unlinkSync(join(runDir, MANIFEST));
  rmdirSync(runDir);
}

/**
 * Removes what interrupted runs left behind: staging folders and half-made symlinks of dead processes, runs that
 * are no longer published (each file checked against its recorded hash), symlinks to pages the published run does
 * not have, and the staging folders the previous report writer left beside `--out`. Returns how many were removed.
 */
export function cleanStale(outDir: string): number {
  const target = resolve(outDir);
  let removed = 0;
  // The previous report writer staged into `.X.staging-<pid>-<hex>/` beside X and could leave it behind.
  const parent = dirname(target);
  const legacy = new RegExp(
    `^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.staging-(\\d+)-[0-9a-f]{8}$`,
  );
  for (const name of existsSync(parent) ? readdirSync(parent) : []) {
    const match = legacy.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    const dir = join(parent, name);
    const files = lstatOrUndefined(dir)?.isDirectory() ? readdirSync(dir) : [];
    if (files.every((file) => /\.(html|ipynb)$/.test(file) || file === ".seamlab-report.json")) {
      rmSync(dir, { recursive: true, force: true });
      removed++;
    }
  }
  const stateDir = join(target, STATE_DIR);
  if (!isOurStateDir(stateDir)) return removed;
  for (const name of readdirSync(stateDir)) {
    const match = STAGING_NAME.exec(name) ?? LINK_TEMP_NAME.exec(name);
    if (match && !processAlive(Number(match[1]))) {
      rmSync(join(stateDir, name), { recursive: true, force: true });
      removed++;
    }
  }
  const published = readPublished(target);
  const runsDir = join(stateDir, "runs");
  for (const name of existsSync(runsDir) ? readdirSync(runsDir) : []) {
    if (!RUN_NAME.test(name) || (published && join(runsDir, name) === published.dir)) continue;
    const pid = Number(name.split("-")[1]);
    if (pid !== process.pid && processAlive(pid)) continue; // a report being written right now
    removeOwnedRun(join(runsDir, name));
    if (!existsSync(join(runsDir, name))) removed++;
  }
  for (const name of readdirSync(target)) {
    if (isOurLink(target, name) && !(published && name in published.manifest.files)) {
      unlinkSync(join(target, name));
      removed++;
    }
  }
  return removed;
}

// ---------------------------------------------------------------- publishing

/**
 * Publishes a complete report: everything is written into a staging folder, which becomes a run folder by one
 * rename; a symlink for each file is made in `outDir` (pointing through `.seamlab/current`); then `current` is
 * switched to the new run by renaming a new symlink over it. Finally what the previous run had and this one does
 * not is removed. Call checkOutDir first.
 */
export function publishReport(
  outDir: string,
  files: Map<string, string | Buffer>,
  run: RunInfo,
  pages: PageEntry[],
): void {
  const target = resolve(outDir);
  for (const name of files.keys()) {
    if (name !== basename(name) || name.startsWith(".") || name === "")
      throw new Error(`report file name must be a plain file name: "${name}"`);
  }
  const stateDir = join(target, STATE_DIR);
  const runsDir = join(stateDir, "runs");
  mkdirSync(runsDir, { recursive: true });
  const staging = join(stateDir, `staging-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(staging);
  const hashes: Record<string, string> = {};
  for (const [name, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    writeFileSync(join(staging, name), content);
    hashes[name] = sha256(content);
  }
  const manifest: RunManifest = { seamlab: "report", run, files: hashes, pages };
  writeFileSync(join(staging, MANIFEST), JSON.stringify(manifest, null, 1) + "\n");
  reached("staged");
  renameSync(staging, join(runsDir, run.id));
  reached("run-in-place");
  for (const name of Object.keys(hashes)) {
    const link = join(target, name);
    if (isOurLink(target, name)) continue;
    if (lstatOrUndefined(link))
      throw new SeamlabError(`--out: ${link} appeared while the report ran; it was left alone.`);
    symlinkSync(linkTarget(name), link);
  }
  reached("linked");
  const temp = join(stateDir, `current.${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
  symlinkSync(`runs/${run.id}`, temp);
  renameSync(temp, join(stateDir, "current"));
  reached("switched");
  for (const name of readdirSync(target)) {
    if (!(name in hashes) && isOurLink(target, name)) unlinkSync(join(target, name));
  }
  reached("unlinked");
  for (const name of readdirSync(runsDir)) {
    if (name !== run.id && RUN_NAME.test(name)) removeOwnedRun(join(runsDir, name));
  }
  reached("pruned");
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
