import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAtomicFile, removeStaleTempFiles, writeFileAtomic } from "../../src/core/atomic-write";

test("writeFileAtomic replaces a file whole, or refuses to when exclusive, leaving no temp file", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-atomic-write-"));
  try {
    const path = join(dir, "out.txt");
    writeFileAtomic(path, "one");
    writeFileAtomic(path, "two");
    assert.equal(readFileSync(path, "utf8"), "two");
    assert.throws(() => writeFileAtomic(path, "three", { exclusive: true }), { code: "EEXIST" });
    assert.equal(readFileSync(path, "utf8"), "two");
    writeFileAtomic(join(dir, "new.txt"), "new", { exclusive: true });
    assert.deepEqual(readdirSync(dir).sort(), ["new.txt", "out.txt"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("openAtomicFile shows nothing until commit, the whole content after it, and nothing at all after abort", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-atomic-write-"));
  try {
    const path = join(dir, "lines.jsonl");
    writeFileSync(path, "old\n");
    const file = openAtomicFile(path);
    file.write("a\n");
    file.write(Buffer.from("b\n"));
    assert.equal(readFileSync(path, "utf8"), "old\n", "the old content until commit");
    file.commit();
    assert.equal(readFileSync(path, "utf8"), "a\nb\n");
    const dropped = openAtomicFile(join(dir, "dropped.jsonl"));
    dropped.write("half");
    dropped.abort();
    assert.deepEqual(readdirSync(dir), ["lines.jsonl"], "no temp file and no dropped file left");
    const exclusive = openAtomicFile(path, { exclusive: true });
    exclusive.write("c\n");
    assert.throws(() => exclusive.commit(), { code: "EEXIST" });
    assert.deepEqual(readdirSync(dir), ["lines.jsonl"]);
    assert.equal(readFileSync(path, "utf8"), "a\nb\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("removeStaleTempFiles reclaims temp files of dead processes only, and never a user's file", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-atomic-write-"));
  try {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const deadPid = Number(dead.stdout);
    writeFileSync(join(dir, `.out.txt.${deadPid}.0-3.seamlab-tmp`), "torn");
    writeFileSync(join(dir, `.out.txt.${process.pid}.0-4.seamlab-tmp`), "being written");
    writeFileSync(join(dir, "notes.seamlab-tmp"), "a user's file with a similar name");
    assert.equal(removeStaleTempFiles(dir), 1);
    assert.deepEqual(readdirSync(dir).sort(), [`.out.txt.${process.pid}.0-4.seamlab-tmp`, "notes.seamlab-tmp"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
