/** Runs the real `seamlab` CLI as a user would, and checks how it fails. Shared by the CLI fault tests. */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const bin = join(root, "bin/seamlab.js");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function seamlab(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const child = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? root,
    env: options.env ?? process.env,
    encoding: "utf8",
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** The same, without blocking: several of these run side by side. */
export function seamlabAsync(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd ?? root,
      env: options.env ?? process.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs `jobs` at most `limit` at a time (the machine has two cores). */
export async function inBatches<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const at = next++;
        out[at] = await run(items[at]);
      }
    }),
  );
  return out;
}

/** A user error: non-zero exit, a message matching `pattern`, and never a stack trace. */
export function assertUserError(result: CliResult, pattern: RegExp, what = ""): void {
  assert.notEqual(result.status, 0, `${what} should fail; stdout: ${result.stdout.slice(0, 300)}`);
  assert.match(result.stderr, pattern, what);
  assert.doesNotMatch(result.stderr, /^\s+at /m, `${what}: no stack trace`);
}

/** A hash of every name, type, link target and byte under `dir`: equal hashes mean nothing was touched. */
export function hashFolder(dir: string): string {
  const hash = createHash("sha256");
  const walk = (at: string, rel: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const stat = lstatSync(path);
      hash.update(`${rel}/${name}\0${stat.mode}\0`);
      if (stat.isSymbolicLink()) hash.update(readlinkSync(path));
      else if (stat.isDirectory()) walk(path, `${rel}/${name}`);
      else if (stat.isFile()) hash.update(readFileSync(path));
      hash.update("\0");
    }
  };
  walk(dir, "");
  return hash.digest("hex");
}
