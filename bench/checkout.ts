// Other checkouts for whole-process benches: a commit named by --baseline, and fresh clones of a commit with this
// checkout's node_modules linked in (an empty result cache, and the committed code only: no one's edits in progress).
import { spawnSync } from "node:child_process";
import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The full commit id `rev` names; throws a one-line message when it is not a commit of the repository at `root`. */
export function resolveCommit(rev: string, root: string, flag = "--baseline"): string {
  const parsed = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], {
    cwd: root,
    encoding: "utf8",
  });
  if (parsed.status !== 0) throw new Error(`${flag} ${rev}: not a commit of this repository`);
  return parsed.stdout.trim();
}

/** Throws when `commit` pins another package-lock.json than HEAD: its clone would run on HEAD's node_modules. */
export function requireSameLock(commit: string, root: string, flag = "--baseline"): void {
  const lock = spawnSync("git", ["diff", "--quiet", commit, "HEAD", "--", "package-lock.json"], { cwd: root });
  if (lock.status !== 0)
    throw new Error(
      `${flag} ${commit.slice(0, 10)}: its package-lock.json differs from HEAD's, and both clones use this ` +
        `checkout's node_modules`,
    );
}

/**
 * A fresh clone of the repository at `root`, checked out at `commit`, with `root`'s node_modules linked in, in a new
 * temporary folder named `<prefix>XXXXXX`. The caller removes it.
 */
export function freshClone(root: string, commit = "HEAD", prefix = "seamlab-bench-"): string {
  const clone = mkdtempSync(join(tmpdir(), prefix));
  const cloned = spawnSync("git", ["clone", "-q", "--no-hardlinks", root, clone], { stdio: "inherit" });
  if (cloned.status !== 0) throw new Error("git clone failed");
  if (commit !== "HEAD") {
    const checkout = spawnSync("git", ["checkout", "-q", "--detach", commit], { cwd: clone, stdio: "inherit" });
    if (checkout.status !== 0) throw new Error(`git checkout ${commit} failed`);
  }
  symlinkSync(join(root, "node_modules"), join(clone, "node_modules"));
  return clone;
}
