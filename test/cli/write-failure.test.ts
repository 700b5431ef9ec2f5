// Issue 33 §5 outside staged and atomic writes: a write the file system refuses anywhere in a command (here the
// lock file beside --out, and standard output) ends in one line naming the path, the operation and what to do,
// never Node's raw "ENOSPC: no space left on device, write" or a stack trace. The faults are injected into the real
// CLI by a preload (test/helpers/write-faults.mjs); standard output goes to /dev/full, a real full device.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, openSync, closeSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";
import { writeFaultEnv } from "../helpers/write-faults";
import { assertUserError, bin, root, seamlab } from "./spawn-cli";

const corpus = tinyCorpusFolder();
const work = mkdtempSync(join(tmpdir(), "seamlab-write-failure-"));
after(() => {
  rmSync(corpus, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const queries = (out: string) => ["queries", "headers", "--corpus", corpus, "--out", out];

const cases: [string, "open" | "write", RegExp][] = [
  [
    "EACCES",
    "open",
    /^seamlab: --out .*q-EACCES\.csv: cannot write there: permission denied \(EACCES\) while opening .*\.q-EACCES\.csv\.seamlab-lock\. Check the permissions/,
  ],
  [
    "EROFS",
    "open",
    /^seamlab: --out .*q-EROFS\.csv: cannot write there: cannot write .*\.q-EROFS\.csv\.seamlab-lock: it is on a read-only disk .*Write elsewhere/,
  ],
  [
    "EDQUOT",
    "open",
    /^seamlab: --out .*q-EDQUOT\.csv: cannot write there: no space left on the disk holding .*seamlab-lock while opening .*\(.* free of .*\)\. Free/,
  ],
  [
    "ENOSPC",
    "write",
    /^seamlab: no space left on the disk \(ENOSPC\) while writing one of this run's files \(the system did not say which; it writes --out .*q-ENOSPC\.csv\)/,
  ],
];

for (const [code, syscall, pattern] of cases) {
  test(`${code} from ${syscall === "open" ? "an" : "a"} ${syscall} outside any staged write is one line naming the path and what to do`, () => {
    const out = join(work, `q-${code}.csv`);
    const result = seamlab(queries(out), { env: writeFaultEnv(code, syscall, ".seamlab-lock") });
    assertUserError(result, pattern, code);
    assert.equal(result.status, 2);
    assert.equal(result.stderr.trim().split("\n").length, 1, `one line: ${result.stderr}`);
    assert.doesNotMatch(result.stderr, new RegExp(`^${code}:`, "m"), "not Node's raw line");
    assert.equal(existsSync(out), false, "nothing written");
    assert.deepEqual(
      readdirSync(work).filter((name) => name.includes(`q-${code}`)),
      [],
      "no empty lock file left behind",
    );
  });
}

test("a refused write deep in a command (a cache entry's temp file) reaches the top as one line naming the file", () => {
  const cache = join(work, "cache");
  const result = seamlab(["seams", "--corpus", corpus, "--size", "200", "--overlap", "20", "--cache-dir", cache], {
    env: writeFaultEnv("EACCES", "open", ".seamlab-tmp"),
  });
  assertUserError(
    result,
    /^seamlab: permission denied \(EACCES\) while opening .*cache\/[0-9a-f]{2}\/\.[0-9a-f]{64}\.json\.\d+\.[\d-]+\.seamlab-tmp\. Check the permissions of that file and its folder, or give another path\.$/m,
  );
  assert.equal(result.status, 2);
});

test("standard output redirected to a full disk says so in one line, naming where it goes, never a stack trace", (t) => {
  if (!existsSync("/dev/full")) return t.skip("no /dev/full on this system");
  const full = openSync("/dev/full", "w");
  try {
    const child = spawnSync(process.execPath, [bin, "seams", "--corpus", corpus, "--size", "200", "--overlap", "20"], {
      cwd: root,
      stdio: ["ignore", full, "pipe"],
      encoding: "utf8",
    });
    assert.equal(child.status, 2, child.stderr);
    assert.match(
      child.stderr,
      /seamlab: no space left on the disk holding \/dev\/full while writing \/dev\/full .*Free space there/,
    );
    assert.doesNotMatch(child.stderr, /^\s+at /m, "no stack trace");
    assert.doesNotMatch(child.stderr, /Unhandled 'error' event/);
  } finally {
    closeSync(full);
  }
});
