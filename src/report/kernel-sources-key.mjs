// Which compiled copy of src/ belongs to the sources as they are now (kernel-sources.ts builds the copies). Plain
// JavaScript, because two kinds of process need it: `seamlab report` (through tsx) and a tslab kernel that Jupyter
// starts (kernel-jupyter-src.mjs), which has no TypeScript loader and must not get one.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";

/** Folders of src/ that notebooks never reach (plain Node ESM code run by tsx). */
const NOTEBOOK_UNREACHABLE = ["report", "cli"];

/** Bumped when kernel-sources.ts changes what it writes, so an old copy is never used. */
export const BUILD_FORMAT = "kernel-src 2";

/** Where compiled copies live, under the project root (so package lookups and projectRoot() still find it). */
export function kernelSourcesDir(root) {
  return join(root, ".seamlab-cache", "kernel-src");
}

/** Every file of src/ a notebook can reach (TypeScript sources and the plain files beside them), sorted. */
export function notebookSourceFiles(root) {
  const out = [];
  const walk = (dir, top) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!(top && NOTEBOOK_UNREACHABLE.includes(entry.name))) walk(path, false);
      } else out.push(path);
    }
  };
  walk(join(root, "src"), true);
  return out;
}

/** tslab's TypeScript version, from its package.json (without loading the compiler). */
export function tslabTypeScriptVersion(root) {
  const require = createRequire(join(root, "node_modules", "tslab", "package.json"));
  return JSON.parse(readFileSync(require.resolve("@tslab/typescript-for-tslab/package.json"), "utf8")).version;
}

/**
 * A file's bytes, or undefined when it was removed after src/ was listed (a file another process writes and removes
 * in src/ while a report starts is not part of the sources).
 */
export function readUnlessGone(path) {
  try {
    return readFileSync(path);
  } catch (error) {
    if (error.code === "ENOENT") return undefined;
    throw error;
  }
}

function readIfExists(path) {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

/**
 * The hash a compiled copy is filed under: the notebook-reachable sources, the installed packages (their types
 * shape the declarations), tslab's version and TypeScript's, and the build's format.
 */
export function kernelSourcesKey(root, ts = { version: tslabTypeScriptVersion(root) }) {
  const hash = createHash("sha256");
  const tslabManifest = readIfExists(join(root, "node_modules", "tslab", "package.json"));
  for (const part of [BUILD_FORMAT, ts.version, tslabManifest, readIfExists(join(root, "package-lock.json"))]) {
    hash.update(`${part.length}:${part}\n`);
  }
  for (const path of notebookSourceFiles(root)) {
    const name = relative(root, path);
    const content = readUnlessGone(path);
    if (content === undefined) continue;
    hash.update(`${name.length}:${name}\n${content.length}:`);
    hash.update(content);
  }
  return hash.digest("hex");
}

/** The compiled copy of src/ as it is now, when one is complete (its package.json is written last); else undefined. */
export function currentKernelSources(root) {
  const dir = join(kernelSourcesDir(root), kernelSourcesKey(root));
  return existsSync(join(dir, "package.json")) ? dir : undefined;
}
