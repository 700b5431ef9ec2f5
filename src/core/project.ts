import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * Locating the seamlab checkout without `import.meta.url`: notebooks load this code through tslab as
 * CommonJS (where `import.meta` does not compile), the CLI and tests as ESM (where `__dirname` does not
 * exist). Walk up from whichever of them is available.
 */
function isSeamlabRoot(dir: string): boolean {
  const file = join(dir, "package.json");
  if (!existsSync(file)) return false;
  try {
    return JSON.parse(readFileSync(file, "utf8")).name === "seamlab";
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

/** The version in package.json: part of every cache key, so a new release never reads old results. */
export function seamlabVersion(): string {
  return String(JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")).version);
}
