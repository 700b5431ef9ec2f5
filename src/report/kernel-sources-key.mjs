// Which compiled copy of src/ belongs to the sources as they are now (kernel-sources.ts builds the copies). Plain
// JavaScript, because two kinds of process need it: `seamlab report` (through tsx) and a tslab kernel that Jupyter
// starts (kernel-jupyter-src.mjs), which has no TypeScript loader and must not get one.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { buildKey, sortedFilesUnder } from "../build/land.cjs";

/** Folders of src/ that notebooks never reach (plain Node ESM code run by tsx). */
const NOTEBOOK_UNREACHABLE = ["report", "cli"];

/** Bumped when kernel-sources.ts changes what it writes, so an old copy is never used. */
const BUILD_FORMAT = "kernel-src 2";

/** Where compiled copies live, under the project root (so package lookups and projectRoot() still find it). */
export function kernelSourcesDir(root) {
  return join(root, ".seamlab-cache", "kernel-src");
}

/** Every file of src/ a notebook can reach (TypeScript sources and the plain files beside them), sorted. */
export function notebookSourceFiles(root) {
  return sortedFilesUnder(join(root, "src"), NOTEBOOK_UNREACHABLE);
}

/** tslab's TypeScript version, from its package.json (without loading the compiler). */
function tslabTypeScriptVersion(root) {
  const require = createRequire(join(root, "node_modules", "tslab", "package.json"));
  return JSON.parse(readFileSync(require.resolve("@tslab/typescript-for-tslab/package.json"), "utf8")).version;
}

function readIfExists(path) {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

/**
 * The hash a compiled copy is filed under: the notebook-reachable sources, the installed packages (their types
 * shape the declarations), tslab's version and TypeScript's, and the build's format.
 */
export function kernelSourcesKey(root, ts = { version: tslabTypeScriptVersion(root) }) {
  const tslabManifest = readIfExists(join(root, "node_modules", "tslab", "package.json"));
  const parts = [BUILD_FORMAT, ts.version, tslabManifest, readIfExists(join(root, "package-lock.json"))];
  return buildKey(root, parts, notebookSourceFiles(root));
}

/** The compiled copy of src/ as it is now, when one is complete (its package.json is written last); else undefined. */
export function currentKernelSources(root) {
  const dir = join(kernelSourcesDir(root), kernelSourcesKey(root));
  return existsSync(join(dir, "package.json")) ? dir : undefined;
}
