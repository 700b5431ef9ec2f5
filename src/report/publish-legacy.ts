/**
 * Reports written by earlier seamlab versions, recognised as seamlab's so that the next report replaces them:
 *
 *   X/.seamlab/runs/<run>/    one whole report per run, with manifest.json holding the sha256 of every file
 *   X/.seamlab/current        symlink to runs/<run>
 *   X/<file>                  symlink to .seamlab/current/<file>
 *
 * (and, before that, `.X.staging-<pid>-<hex>/` folders beside X). Pages as symlinks did not survive `cp -r`; the
 * current layout (publish.ts) has plain files. What is in such a folder is removed only when proven seamlab's, as
 * before: a link pointing exactly where seamlab points them, a run file matching its recorded hash.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmdirSync, rmSync, unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { sha256 } from "../core/owned-folder";
import { processAlive } from "../core/process-alive.cjs";

export const STATE_DIR = ".seamlab";
const RUN_MANIFEST = "manifest.json";
const STAGING_NAME = /^staging-(\d+)-[0-9a-f]{8}$/;
const LINK_TEMP_NAME = /^current\.(\d+)-[0-9a-f]{8}\.tmp$/;

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** `X/<name>` is seamlab's when it is a symlink pointing exactly at `.seamlab/current/<name>`. */
function isLegacyLink(outDir: string, name: string): boolean {
  const stat = lstatOrUndefined(join(outDir, name));
  return (
    stat !== undefined && stat.isSymbolicLink() && readlinkSync(join(outDir, name)) === `${STATE_DIR}/current/${name}`
  );
}

/** The `.seamlab` folder is seamlab's when it holds nothing but what the earlier layout wrote there. */
function isLegacyStateDir(stateDir: string): boolean {
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

/** True when `X/<name>` is part of an earlier seamlab's report (its state folder or one of its page links). */
export function isLegacyEntry(outDir: string, name: string): boolean {
  return name === STATE_DIR ? isLegacyStateDir(join(outDir, name)) : isLegacyLink(outDir, name);
}

interface LegacyManifest {
  seamlab: "report";
  files: Record<string, string>;
  pages: unknown[];
}

function readRunManifest(runDir: string): LegacyManifest | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(runDir, RUN_MANIFEST), "utf8")) as Partial<LegacyManifest>;
    if (parsed?.seamlab !== "report" || typeof parsed.files !== "object" || !Array.isArray(parsed.pages))
      return undefined;
    return parsed as LegacyManifest;
  } catch {
    return undefined;
  }
}

/** The published run of an earlier seamlab's report in `outDir`: its folder and manifest. */
export function readLegacyPublished(outDir: string): { dir: string; manifest: LegacyManifest } | undefined {
  const stateDir = join(outDir, STATE_DIR);
  if (!isLegacyStateDir(stateDir) || !lstatOrUndefined(join(stateDir, "current"))) return undefined;
  const dir = join(stateDir, readlinkSync(join(stateDir, "current")));
  const manifest = readRunManifest(dir);
  return manifest ? { dir, manifest } : undefined;
}

/** Removes a run folder's files that match their recorded hashes; returns what was kept (edited or foreign). */
function removeRun(runDir: string): string[] {
  const manifest = readRunManifest(runDir);
  if (!manifest) return [runDir];
  const kept: string[] = [];
  for (const name of readdirSync(runDir)) {
    if (name === RUN_MANIFEST) continue;
    const hash = manifest.files[name];
    const stat = lstatOrUndefined(join(runDir, name));
    if (typeof hash === "string" && stat?.isFile() && sha256(readFileSync(join(runDir, name))) === hash)
      unlinkSync(join(runDir, name));
    else kept.push(join(runDir, name));
  }
  if (kept.length > 0) return kept;
  unlinkSync(join(runDir, RUN_MANIFEST));
  rmdirSync(runDir);
  return [];
}

/**
 * Removes an earlier seamlab's report from `dir` (a report folder set aside by publish.ts): its page links, its
 * runs (file by file, by hash), its `current` link and the leftovers of its dead processes. Returns what was kept.
 */
export function removeLegacyReport(dir: string): string[] {
  for (const name of readdirSync(dir)) if (isLegacyLink(dir, name)) unlinkSync(join(dir, name));
  const stateDir = join(dir, STATE_DIR);
  if (!isLegacyStateDir(stateDir)) return [];
  const kept: string[] = [];
  for (const name of readdirSync(stateDir)) {
    const match = STAGING_NAME.exec(name) ?? LINK_TEMP_NAME.exec(name);
    if (match && !processAlive(Number(match[1]))) rmSync(join(stateDir, name), { recursive: true, force: true });
  }
  if (lstatOrUndefined(join(stateDir, "current"))) unlinkSync(join(stateDir, "current"));
  const runsDir = join(stateDir, "runs");
  for (const name of existsSync(runsDir) ? readdirSync(runsDir) : []) kept.push(...removeRun(join(runsDir, name)));
  for (const folder of [runsDir, stateDir]) {
    if (existsSync(folder) && readdirSync(folder).length === 0) rmdirSync(folder);
  }
  return kept;
}

/** Removes the `.X.staging-<pid>-<hex>/` folders the report writer before these two left beside X. */
export function removeOldWriterStaging(outDir: string): number {
  const target = resolve(outDir);
  const parent = dirname(target);
  const pattern = new RegExp(
    `^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.staging-(\\d+)-[0-9a-f]{8}$`,
  );
  let removed = 0;
  for (const name of existsSync(parent) ? readdirSync(parent) : []) {
    const match = pattern.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    const dir = join(parent, name);
    const files = lstatOrUndefined(dir)?.isDirectory() ? readdirSync(dir) : [];
    if (files.every((file) => /\.(html|ipynb)$/.test(file) || file === ".seamlab-report.json")) {
      rmSync(dir, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
