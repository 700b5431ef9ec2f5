// Runs every test/**/*.test.ts with node's test runner (tsx as the loader), after type-checking.
// Node 20's `--test` does not glob .ts files itself, so the list is built here.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = findTests("test").filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)));
if (filter.length === 0) {
  const tsc = spawnSync("npx", ["tsc", "--noEmit", "-p", "."], { stdio: "inherit" });
  if (tsc.status !== 0) {
    console.error("type-check failed (tsc --noEmit)");
    process.exit(tsc.status ?? 1);
  }
  console.log("type-check: ok");
}
const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);
