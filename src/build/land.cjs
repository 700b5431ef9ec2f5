// The one "build aside, rename into place" helper, and the hash that names a build (build/ensure-built.cjs,
// build/kernels/copy.ts). CommonJS, so every kind of process can load it, tslab's CommonJS included.
"use strict";
const { createHash } = require("node:crypto");
const { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } = require("node:fs");
const { join, relative } = require("node:path");
const { processAlive } = require("../core/process-alive.cjs");

/** Every file under `dir`, sorted by path, leaving out the folders `skipFolders` names (paths relative to `dir`). */
function sortedFilesUnder(dir, skipFolders = []) {
  /** @type {string[]} */
  const out = [];
  /** @param {string} at */
  const walk = (at) => {
    const entries = readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!skipFolders.includes(relative(dir, path))) walk(path);
      } else out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** A file's bytes, or undefined when another process removed it after its folder was listed. */
function readUnlessGone(path) {
  try {
    return readFileSync(path);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * The hex sha256 a build is filed under: `parts` (format, compiler version, ...), then each file's path relative to
 * `root` and bytes, length-prefixed.
 */
function buildKey(root, parts, paths) {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:${part}\n`);
  for (const path of paths) {
    const name = relative(root, path);
    const content = readUnlessGone(path);
    if (content === undefined) continue;
    hash.update(`${name.length}:${name}\n${content.length}:`);
    hash.update(content);
  }
  return hash.digest("hex");
}

/** @typedef {{ dir: string, reused: boolean }} Landed */

/**
 * Lands the build `name` in `parent` unless `complete(dir)` says it is there: `build(temp)` writes `.<name>.<pid>.tmp`,
 * renamed into place whole (a concurrent one landing first wins); undefined when `build` returns false. Synchronous
 * when `build` is, else a promise.
 * @param {string} parent
 * @param {string} name
 * @param {(dir: string) => boolean} complete
 * @param {(temp: string) => boolean | Promise<boolean>} build
 * @returns {Landed | undefined | Promise<Landed | undefined>}
 */
function landBuild(parent, name, complete, build) {
  const dir = join(parent, name);
  if (complete(dir)) return { dir, reused: true };
  mkdirSync(parent, { recursive: true });
  const temp = join(parent, `.${name}.${process.pid}.tmp`);
  const discard = () => rmSync(temp, { recursive: true, force: true });
  discard();
  /** @param {boolean} built */
  const land = (built) => {
    try {
      if (!built) return undefined;
      try {
        renameSync(temp, dir);
      } catch (error) {
        if (!complete(dir)) throw error;
      }
      return { dir, reused: false };
    } finally {
      discard();
    }
  };
  /** @param {unknown} error */
  const fail = (error) => {
    discard();
    throw error;
  };
  let result;
  try {
    result = build(temp);
  } catch (error) {
    fail(error);
  }
  return result instanceof Promise ? result.then(land, fail) : land(/** @type {boolean} */ (result));
}

/**
 * Removes what earlier builds of one kind (`prefix` and a hex key) left in `parent`: temp folders of dead processes,
 * and, once unused for `unusedMs`, all but the `keep` builds used last besides `current` (another process may be
 * running from one).
 */
function pruneBuilds(parent, prefix, current, { keep, unusedMs }) {
  let names;
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  const built = new RegExp(`^${prefix}[0-9a-f]+$`);
  const temp = new RegExp(`^\\.${prefix}[0-9a-f]+\\.(\\d+)\\.tmp$`);
  /** @type {{ path: string, used: number }[]} */
  const others = [];
  const now = Date.now();
  for (const name of names) {
    const path = join(parent, name);
    try {
      const building = temp.exec(name);
      if (building && !processAlive(Number(building[1]))) rmSync(path, { recursive: true, force: true });
      else if (built.test(name) && name !== current) others.push({ path, used: statSync(path).mtimeMs });
    } catch {
      // removed by another process meanwhile
    }
  }
  others.sort((a, b) => b.used - a.used);
  for (const { path, used } of others.slice(keep)) {
    if (now - used > unusedMs) rmSync(path, { recursive: true, force: true });
  }
}

module.exports = { sortedFilesUnder, readUnlessGone, buildKey, landBuild, pruneBuilds };
