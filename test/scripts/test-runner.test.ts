// scripts/test.ts decides what `npm test` and `npm run test:corpora` run: a fresh clone must pass `npm test`
// without the real corpora, and say in one line what it skipped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

function runner(args: string[], dataDir?: string) {
  const env = { ...process.env };
  delete env.SEAMLAB_DATA_DIR;
  if (dataDir !== undefined) env.SEAMLAB_DATA_DIR = dataDir;
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/test.ts", ...args], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

test("without SEAMLAB_DATA_DIR the real-corpus suite is skipped with one line naming it and the reason", () => {
  const run = runner(["test/corpora/"]);
  assert.equal(run.code, 0, run.err);
  const lines = run.out.split("\n").filter((line) => line.startsWith("skipped:"));
  assert.equal(lines.length, 1, run.out);
  assert.match(lines[0], /test\/corpora\/ \(labelled-sets, langchain-equality, [^:]*opentelemetry-seams/);
  assert.match(lines[0], /SEAMLAB_DATA_DIR is unset/);
  assert.doesNotMatch(run.out, /^# Subtest/m, "no real-corpus test ran");
});

test("npm run test:corpora refuses to run without SEAMLAB_DATA_DIR, or with a folder that does not exist", () => {
  const unset = runner(["--corpora"]);
  assert.equal(unset.code, 2);
  assert.match(unset.err, /npm run test:corpora needs SEAMLAB_DATA_DIR/);
  const missing = runner(["--corpora"], "/no/such/seamlab-data");
  assert.equal(missing.code, 2);
  assert.match(missing.err, /SEAMLAB_DATA_DIR=\/no\/such\/seamlab-data is not a folder/);
});
