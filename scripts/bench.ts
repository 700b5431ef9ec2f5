// `npm run bench`: every `bench:*` script in package.json, one after another (they compete for the same two
// cores otherwise); a script whose bench file is missing is skipped with a message, a failing one fails the run.
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";

const scripts: Record<string, string> = JSON.parse(readFileSync("package.json", "utf8")).scripts;
const names = Object.keys(scripts)
  .filter((name) => name.startsWith("bench:"))
  .sort();
let failed = 0;
for (const name of names) {
  const file = scripts[name].split(" ").find((word) => word.startsWith("bench/"));
  if (file && !existsSync(file)) {
    console.log(`bench: skipping ${name} (${file} not found)`);
    continue;
  }
  console.log(`bench: npm run ${name}`);
  if (spawnSync("npm", ["run", "--silent", name], { stdio: "inherit" }).status !== 0) {
    failed++;
    console.log(`bench: ${name} failed`);
  }
}
process.exit(failed ? 1 : 0);
