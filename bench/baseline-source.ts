// `--baseline REV` for in-process benches: the `src/` folder of another commit, extracted with `git archive` into a
// fresh folder under node_modules/.cache (so its package imports resolve to this checkout's node_modules), imported
// beside HEAD's in the same process, and removed again when the bench exits.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot } from "../src/core/project";
import { resolveCommit } from "./checkout";

export interface BaselineSource {
  /** The full commit id REV names. */
  commit: string;
  /** The folder holding that commit's `src/`. */
  dir: string;
  /** Imports `src/<path>` of that commit (e.g. `splitters/recursive.ts`). */
  load: <T>(path: string) => Promise<T>;
}

/** Extracts `src/` at `rev`; throws a plain message when `rev` is not a commit of this repository. */
export function baselineSource(rev: string, root: string = projectRoot()): BaselineSource {
  const commit = resolveCommit(rev, root);
  const cache = join(root, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, `seamlab-baseline-${commit.slice(0, 10)}-`));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const archive = spawnSync("git", ["archive", "--format=tar", commit, "src"], { cwd: root, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`--baseline ${rev}: git archive failed: ${archive.stderr}`);
  const untar = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`--baseline ${rev}: tar failed: ${untar.stderr}`);
  return {
    commit,
    dir,
    load: async <T>(path: string) => (await import(pathToFileURL(join(dir, "src", path)).href)) as T,
  };
}
