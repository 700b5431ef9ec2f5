// src/ bundled by esbuild once per version of the sources (node_modules/.cache/seamlab/build-<key>/, one chunk per
// command) for the CLI (bin/seamlab.js) and the sweep's worker threads: through tsx, every process paid about 0.4 s
// of CPU before `main` ran. The kernels load their own form of src/ (build/kernels/copy.ts).
"use strict";
const { existsSync, readFileSync, utimesSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");
const { buildKey, landBuild, pruneBuilds, sortedFilesUnder } = require("./land.cjs");

/** Changes when the way the build is made changes, so an old build is never reused. */
const BUILD_FORMAT = "build 1";

/** Builds of other sources kept, once unused for a day, beyond the few used last (each edit makes a new one). */
const PRUNE = { keep: 3, unusedMs: 24 * 3600 * 1000 };

/** An ES module bundle has no `require`; esbuild's shim for the CommonJS modules inside uses this one. */
const BANNER =
  'import { createRequire as __seamlabRequire } from "node:module";\n' +
  "const require = __seamlabRequire(import.meta.url);";

/**
 * @typedef {object} Built
 * @property {string} dir the build's folder
 * @property {string} cli the CLI's entry (exports `main`)
 * @property {string} worker the sweep workers' entry (exports `runTask`)
 * @property {number} [builtMs] how long this process took to build it (absent when it was there already)
 */

/** Keyed by every file of src/, esbuild's version, the format and `root` (two checkouts may share node_modules). */
function builtKey(root, version) {
  return buildKey(root, [BUILD_FORMAT, version, root], sortedFilesUnder(join(root, "src"))).slice(0, 24);
}

/** Replaces `import.meta.url` in each source file with that file's own URL, so a module finds the files beside it. */
const importMetaUrl = {
  name: "seamlab-import-meta-url",
  /** @param {import("esbuild").PluginBuild} build */
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.(ts|mjs)$/ }, (args) => {
      const contents = readFileSync(args.path, "utf8");
      if (!contents.includes("import.meta.url")) return undefined;
      return {
        contents: contents.split("import.meta.url").join(JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith(".ts") ? "ts" : "js",
      };
    });
  },
};

/** Builds this process made or found, by root and key: the same sources are never built twice. */
/** @type {Map<string, Promise<Built | undefined>>} */
const known = new Map();

/**
 * src/ as JavaScript for the sources as they are now, built first if needed; undefined when SEAMLAB_BUILD=0 asks for
 * the TypeScript sources or the build cannot be made (callers then run the sources through tsx).
 * @param {string} root the project's folder
 * @returns {Promise<Built | undefined>}
 */
async function ensureBuilt(root) {
  if (process.env.SEAMLAB_BUILD === "0") return undefined;
  let name;
  try {
    const esbuild = createRequire(join(root, "package.json")).resolve("esbuild/package.json");
    name = `build-${builtKey(root, JSON.parse(readFileSync(esbuild, "utf8")).version)}`;
  } catch {
    return undefined; // no esbuild, or src/ unreadable
  }
  const id = `${root}\n${name}`;
  const built = known.get(id) ?? build(root, name).catch(() => undefined);
  known.set(id, built);
  return built;
}

async function build(root, name) {
  const started = Date.now();
  const parent = join(root, "node_modules", ".cache", "seamlab");
  const complete = (/** @type {string} */ dir) =>
    existsSync(join(dir, "worker.js")) && existsSync(join(dir, "main.js"));
  const landed = await landBuild(parent, name, complete, async (temp) => {
    await require("esbuild").build({
      entryPoints: { main: join(root, "src", "cli", "main.ts"), worker: join(root, "src", "experiment", "worker.ts") },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      outdir: temp,
      banner: { js: BANNER },
      logLevel: "silent",
      plugins: [importMetaUrl],
    });
    return true;
  });
  if (!landed) return undefined;
  if (landed.reused) {
    // The folder's time says when it was last used (pruneBuilds keeps what was used lately).
    try {
      utimesSync(landed.dir, new Date(), new Date());
    } catch {
      // a read-only install: the build is still good
    }
  } else pruneBuilds(parent, "build-", name, PRUNE);
  const files = { dir: landed.dir, cli: join(landed.dir, "main.js"), worker: join(landed.dir, "worker.js") };
  return landed.reused ? files : { ...files, builtMs: Date.now() - started };
}

module.exports = { ensureBuilt, builtKey };
