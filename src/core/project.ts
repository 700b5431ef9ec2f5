import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/**
 * Locating the seamlab checkout without `import.meta.url`: notebooks load this code through tslab as
 * CommonJS (where `import.meta` does not compile), the CLI and tests as ESM (where `__dirname` does not
 * exist). Walk up from whichever of them is available.
 */
function isSeamlabRoot(dir: string): boolean {
  if (!existsSync(join(dir, "package.json"))) return false;
  try {
    return readPackageJson(dir).name === "seamlab";
  } catch {
    return false;
  }
}

function walkUp(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (isSeamlabRoot(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

let cachedRoot: string | undefined;

/** The seamlab project root (the folder of its package.json). */
export function projectRoot(): string {
  if (cachedRoot) return cachedRoot;
  const starts: string[] = [];
  if (typeof __dirname === "string") starts.push(__dirname);
  if (process.argv[1]) starts.push(dirname(process.argv[1]));
  starts.push(process.cwd());
  for (const start of starts) {
    const found = walkUp(start);
    if (found) return (cachedRoot = found);
  }
  throw new Error(`cannot find the seamlab package.json above ${starts.join(" or ")}`);
}

/**
 * A `require` resolving from the project root: packages from its node_modules, "./src/..." from its sources. It works
 * the same whether the caller runs as ESM (tsx, the build), as CommonJS (tslab's kernels) or from the built copy.
 */
export function projectRequire(): NodeRequire {
  return createRequire(join(projectRoot(), "package.json"));
}

/** The fields of package.json that seamlab reads. */
export interface PackageManifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
}

/** The package.json of the seamlab checkout at `root` (default: this one), parsed: the one place that reads it. */
export function readPackageJson(root: string = projectRoot()): PackageManifest {
  return JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageManifest;
}

/**
 * The version in package.json: part of every cache key, so a new release never reads old results; the report's
 * index names it too.
 */
export function seamlabVersion(root: string = projectRoot()): string {
  return String(readPackageJson(root).version);
}

/**
 * The checkout's commit ("1a2b3c4d5e6f", with " (with uncommitted changes)" when the tree is dirty), or null when
 * `root` is not a git checkout (a user's copy of a release): never an error.
 */
export function gitCommitOrNull(root: string = projectRoot()): string | null {
  try {
    const git = (args: string[]) =>
      execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const commit = git(["rev-parse", "--short=12", "HEAD"]);
    const dirty = git(["status", "--porcelain", "--untracked-files=no"]);
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return null;
  }
}
