// Listing and hashing a project's own source files. Plain JavaScript, because processes without a TypeScript loader
// need it: the CLI before it has chosen between its bundle and tsx (cli/cli-bundle.mjs), and a kernel Jupyter starts
// (report/kernel-sources-key.mjs). No TypeScript module under src/ imports it: tslab, which compiles the notebooks'
// imports as CommonJS, could not load an ES module.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `dir`, sorted by path, leaving out the folders named in `skipTopFolders` directly under `dir`. */
export function sortedFilesUnder(dir, skipTopFolders = []) {
  const out = [];
  const walk = (at, top) => {
    const entries = readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!(top && skipTopFolders.includes(entry.name))) walk(path, false);
      } else out.push(path);
    }
  };
  walk(dir, true);
  return out;
}

/**
 * A file's bytes, or undefined when it was removed after its folder was listed (a file another process writes and
 * removes in src/ meanwhile is not part of the sources).
 */
export function readUnlessGone(path) {
  try {
    return readFileSync(path);
  } catch (error) {
    if (error.code === "ENOENT") return undefined;
    throw error;
  }
}

/** Feeds `hash` each file's path (relative to `root`) and bytes, length-prefixed; files gone meanwhile are skipped. */
export function hashFiles(hash, root, paths) {
  for (const path of paths) {
    const name = relative(root, path);
    const content = readUnlessGone(path);
    if (content === undefined) continue;
    hash.update(`${name.length}:${name}\n${content.length}:`);
    hash.update(content);
  }
}
