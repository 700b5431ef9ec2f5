import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lockOutput, lockPathOf } from "../../src/core/output-lock";

const root = fileURLToPath(new URL("../..", import.meta.url));
const deadPid = 2 ** 22 + 12345; // above the default pid_max, so never a live process

function withDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-output-lock-"));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tries to take the lock on `output` in another process; returns its stderr. */
function lockFromAnotherProcess(output: string): string {
  const take = `import(${JSON.stringify(join(root, "src/core/output-lock.ts"))}).then((m) => m.lockOutput(${JSON.stringify(output)}, { flag: "--corpus-out", command: "queries", kind: "folder" }))`;
  return spawnSync(process.execPath, ["--import", "tsx", "-e", take], { cwd: root, encoding: "utf8" }).stderr;
}

test("a second process writing the same output is refused by name: the path, the flag, the holder's command and id", () => {
  withDir((dir) => {
    const output = join(dir, "mine-corpus");
    const release = lockOutput(output, { flag: "--out", command: "report", kind: "folder" });
    assert.equal(readFileSync(lockPathOf(output), "utf8"), `${process.pid}\nreport\n`);
    const said = lockFromAnotherProcess(output);
    assert.ok(
      said.includes(`--corpus-out ${output}: another seamlab report (process ${process.pid}) is writing this folder`),
      said,
    );
    release();
    assert.deepEqual(readdirSync(dir), [], "released: no lock file left");
    assert.equal(lockFromAnotherProcess(output), "", "once released, another process takes it");
  });
});

test("a lock left by a process that died is taken over, and taking a lock this process holds again changes nothing", () => {
  withDir((dir) => {
    const output = join(dir, "chosen.json");
    writeFileSync(lockPathOf(output), `${deadPid}\nsweep\n`);
    const release = lockOutput(output, { flag: "--export", command: "sweep", kind: "file" });
    assert.equal(readFileSync(lockPathOf(output), "utf8"), `${process.pid}\nsweep\n`);
    assert.equal(lockOutput(output, { flag: "--export", command: "sweep", kind: "file" }), release);
    release();
    assert.equal(existsSync(lockPathOf(output)), false);
  });
});

test("a lock of an earlier seamlab (the process id alone) still refuses while its process lives", () => {
  withDir((dir) => {
    const output = join(dir, "report");
    writeFileSync(lockPathOf(output), `${process.pid}\n`);
    assert.match(lockFromAnotherProcess(output), /another seamlab run \(process \d+\) is writing this folder/);
    assert.equal(readFileSync(lockPathOf(output), "utf8"), `${process.pid}\n`, "the live holder's lock is left");
  });
});
