import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

// Found without `import.meta.url`: notebooks load this as CommonJS (no `import.meta`), the CLI as ESM (no __dirname).
function walkUp(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    try {
      if (existsSync(join(dir, "package.json")) && readPackageJson(dir).name === "seamlab") return dir;
    } catch {
      // not a package.json we can read: keep looking
    }
    if (dirname(dir) === dir) return undefined;
  }
}

let cachedRoot: string | undefined;

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

/** A `require` resolving from the project root (packages, "./src/..."), whether the caller runs as ESM or CommonJS. */
export const projectRequire = (): NodeRequire => createRequire(join(projectRoot(), "package.json"));

export interface PackageManifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
}

/** The package.json of the checkout at `root`, parsed: the one place that reads it. */
export function readPackageJson(root: string = projectRoot()): PackageManifest {
  return JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageManifest;
}

/** Part of every cache key, so a new release never reads old results. */
export const seamlabVersion = (root: string = projectRoot()): string => String(readPackageJson(root).version);

/** "1a2b3c4d5e6f", plus " (with uncommitted changes)" when dirty, or null outside a git checkout. */
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
