// Runs test/**/*.test.ts with node's test runner (tsx as the loader), after type-checking.
// Node 20's `--test` does not glob .ts files itself, so the list is built here.
//
//   npm test [-- <path-substring>...]   every test a fresh clone can run; the real-corpus suite too when
//                                        SEAMLAB_DATA_DIR is set, otherwise one line says it is skipped
//   npm run test:corpora                 only the real-corpus suite (test/corpora/); SEAMLAB_DATA_DIR required
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { DATA_DIR_VARIABLE, requireDataDir } from "../test/helpers/data-dir";

// Tests that read the real corpora (opentelemetry-docs, tts-handbook, Chroma's set, COVID-QA) from
// SEAMLAB_DATA_DIR live here and nowhere else.
const CORPORA_DIR = join("test", "corpora");

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

const args = process.argv.slice(2);
const corporaOnly = args.includes("--corpora");
const filter = args.filter((arg) => arg !== "--corpora");
const matching = findTests("test").filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)));
const isCorpora = (file: string) => file.startsWith(CORPORA_DIR + "/");

let files: string[];
let skipLine = "";
if (corporaOnly) {
  try {
    requireDataDir("npm run test:corpora");
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  files = matching.filter(isCorpora);
} else if (process.env[DATA_DIR_VARIABLE]) {
  files = matching;
} else {
  files = matching.filter((f) => !isCorpora(f));
  const skipped = matching.filter(isCorpora).map((f) => basename(f, ".test.ts"));
  if (skipped.length > 0)
    skipLine =
      `skipped: the real-corpus suite ${CORPORA_DIR}/ (${skipped.join(", ")}: LangChain equality on ` +
      `opentelemetry-docs and tts-handbook, Chroma, COVID-QA), because ${DATA_DIR_VARIABLE} is unset; ` +
      `run it with ${DATA_DIR_VARIABLE}=<folder of the real corpora> npm run test:corpora`;
}

if (filter.length === 0 && !corporaOnly) {
  const tsc = spawnSync("npx", ["tsc", "--noEmit", "-p", "."], { stdio: "inherit" });
  if (tsc.status !== 0) {
    console.error("type-check failed (tsc --noEmit)");
    process.exit(tsc.status ?? 1);
  }
  console.log("type-check: ok");
}
if (files.length === 0) {
  if (skipLine) console.log(skipLine);
  else console.error(`no test files match ${filter.join(" ")}`);
  process.exit(skipLine ? 0 : 1);
}
const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files], {
  stdio: "inherit",
});
// Last, so it is not lost above the test output.
if (skipLine) console.log(skipLine);
process.exit(run.status ?? 1);
