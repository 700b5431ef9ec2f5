// `npm test`, the one gate: lint (eslint + prettier --check, package.json's `lint` script) and type-check
// (tsc --noEmit) run first, side by side, on every run, with or without a path filter; then test/**/*.test.ts with
// node's test runner (tsx as the loader). Node 20's `--test` does not glob .ts files itself, so the list is built here.
// The tests run even when lint or type-check failed (their output stays useful), but the run then exits non-zero
// and says which step failed, last, where it is not lost above the test output.
//
//   npm test [-- <path-substring>...]   every test a fresh clone can run; the real-corpus suite too when
//                                        SEAMLAB_DATA_DIR is set, otherwise one line says it is skipped
//   npm run test:corpora                 only the real-corpus suite (test/corpora/); SEAMLAB_DATA_DIR required; no
//                                        lint or type-check (CI runs it right after `npm test`)
import { spawn, spawnSync } from "node:child_process";
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

if (files.length === 0 && !skipLine) {
  console.error(`no test files match ${filter.join(" ")}`);
  process.exit(1);
}

/** Runs a command with its output held back, so two steps running side by side print whole, one after the other. */
function runQuietly(name: string, command: string, commandArgs: string[]): Promise<{ name: string; ok: boolean }> {
  return new Promise((done) => {
    const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (data) => (output += data));
    child.stderr.on("data", (data) => (output += data));
    child.on("error", (error) => {
      console.error(`${name}: ${error.message}`);
      done({ name, ok: false });
    });
    child.on("close", (code) => {
      if (code === 0) console.log(`${name}: ok`);
      else process.stderr.write(`${output}${name} failed\n`);
      done({ name, ok: code === 0 });
    });
  });
}

// Lint (eslint and prettier keep caches in node_modules/.cache, so a re-run reads only changed files) and
// type-check: one gate for every run, filtered or not. A run started by a test of this runner (inside a gated run,
// which says so in GATE_RAN) does not lint and type-check the same tree again.
const GATE_RAN = "SEAMLAB_TEST_GATE_RAN";
const gate =
  corporaOnly || process.env[GATE_RAN] === "1"
    ? []
    : await Promise.all([
        runQuietly("lint (npm run lint)", "npm", ["run", "--silent", "lint"]),
        runQuietly("type-check (tsc --noEmit)", "npx", ["tsc", "--noEmit", "-p", "."]),
      ]);
const failedSteps = gate.filter((step) => !step.ok).map((step) => step.name);
const gateLine = failedSteps.length > 0 ? `failed before the tests: ${failedSteps.join(", ")}` : "";
if (files.length === 0) {
  console.log(skipLine);
  if (gateLine) console.error(gateLine);
  process.exit(gateLine ? 1 : 0);
}
const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files], {
  stdio: "inherit",
  env: corporaOnly ? process.env : { ...process.env, [GATE_RAN]: "1" },
});
// Last, so they are not lost above the test output.
if (skipLine) console.log(skipLine);
if (gateLine) console.error(gateLine);
process.exit(gateLine ? 1 : (run.status ?? 1));
