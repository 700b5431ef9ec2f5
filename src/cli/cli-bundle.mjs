// The CLI's code as plain JavaScript, built once per version of src/. Plain JavaScript itself, because it runs
// before any TypeScript loader: `bin/seamlab.js` asks it for the bundle and falls back to tsx without one.
//
// Run through tsx, every CLI process starts tsx's module-hooks thread and sends each of the few hundred modules a
// command reaches through it: about 0.4 s of CPU before `main` runs, and 1-1.5 s more for a command that loads the
// report's renderer. So the first run after a change to src/ bundles `src/cli/main.ts` with esbuild (the compiler tsx
// itself runs) into `node_modules/.cache/seamlab/cli-<key>/`, keyed by the hash of every file under src/, and later
// runs import that. Packages stay outside the bundle (`packages: "external"`) and resolve from the project's
// node_modules as before. Each command stays its own chunk (`splitting`), so a command loads only what it uses.
// `import.meta.url` is replaced, file by file, with the source file's own URL, so a module finds the files beside it
// (kernel preloads, worker scripts) where they are.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { processAlive } from "../core/process-alive.cjs";
import { hashFiles, sortedFilesUnder } from "../core/source-files.mjs";

/** Changes when the way the bundle is built changes, so an old bundle is never reused. */
const BUNDLE_FORMAT = "cli 1";

/**
 * Bundles of other sources are removed once unused for this long, except the few used last: a run started from an
 * older bundle may still import one of its chunks, and every edit to src/ makes a new bundle (about 1 MB).
 */
const UNUSED_MS = 24 * 3600 * 1000;
const KEEP_RECENT = 3;

const ENTRY = "main.js";

/**
 * The hash the bundle of `root`'s sources is filed under: every file of src/, esbuild's version, the format, and
 * the folder itself: the bundle holds the sources' own paths (`import.meta.url`), and two checkouts may share one
 * node_modules (bench:report's clones link this one's).
 */
export function cliBundleKey(root, esbuildVersion) {
  const hash = createHash("sha256");
  hash.update(`${BUNDLE_FORMAT}\n${esbuildVersion}\n${root.length}:${root}\n`);
  hashFiles(hash, root, sortedFilesUnder(join(root, "src")));
  return hash.digest("hex").slice(0, 24);
}

function esbuildVersion(root) {
  const require = createRequire(join(root, "package.json"));
  return JSON.parse(readFileSync(require.resolve("esbuild/package.json"), "utf8")).version;
}

/** Replaces `import.meta.url` in each bundled source file with that file's own URL. */
const importMetaUrl = {
  name: "seamlab-import-meta-url",
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

/** Removes temp folders of builds whose process is gone, and bundles unused for a day beyond the few used last. */
function removeStale(dir, keep) {
  const now = Date.now();
  const bundles = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const temp = /^\.cli-[0-9a-f]+\.(\d+)\.tmp$/.exec(name);
    try {
      if (temp && !processAlive(Number(temp[1]))) rmSync(path, { recursive: true, force: true });
      else if (/^cli-[0-9a-f]+$/.test(name) && path !== keep) bundles.push({ path, used: statSync(path).mtimeMs });
    } catch {
      // removed by another process meanwhile
    }
  }
  bundles.sort((a, b) => b.used - a.used);
  for (const { path, used } of bundles.slice(KEEP_RECENT)) {
    if (now - used > UNUSED_MS) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The entry file of the CLI bundle for the sources as they are now, building it first if needed; undefined when
 * SEAMLAB_CLI_BUNDLE=0 asks for the TypeScript sources or the bundle cannot be built (the caller then runs them
 * through tsx, with the same results).
 */
export async function cliBundle(root) {
  if (process.env.SEAMLAB_CLI_BUNDLE === "0") return undefined;
  try {
    const version = esbuildVersion(root);
    const dir = join(root, "node_modules", ".cache", "seamlab");
    const target = join(dir, `cli-${cliBundleKey(root, version)}`);
    if (existsSync(join(target, ENTRY))) {
      // Its folder's time says when it was last used (removeStale keeps what was used lately).
      try {
        utimesSync(target, new Date(), new Date());
      } catch {
        // a read-only install: the bundle is still good
      }
      return join(target, ENTRY);
    }
    const esbuild = await import("esbuild");
    // Built aside and renamed whole: a CLI process starting meanwhile sees the whole bundle or none.
    const aside = join(dir, `.${target.slice(dir.length + 1)}.${process.pid}.tmp`);
    rmSync(aside, { recursive: true, force: true });
    await esbuild.build({
      entryPoints: { main: join(root, "src", "cli", "main.ts") },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      outdir: aside,
      logLevel: "silent",
      plugins: [importMetaUrl],
    });
    try {
      mkdirSync(dir, { recursive: true });
      renameSync(aside, target);
    } catch (error) {
      // Another CLI process landed the same bundle first: use it.
      rmSync(aside, { recursive: true, force: true });
      if (!existsSync(join(target, ENTRY))) throw error;
    }
    removeStale(dir, target);
    return join(target, ENTRY);
  } catch {
    return undefined;
  }
}
