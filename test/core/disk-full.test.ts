// A full disk, injected at the file-system boundary: Node's fs.writeFileSync is replaced for one test (and the ES
// module bindings synced), so every writer sees ENOSPC exactly where a real full disk would stop it.
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import fs, { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SeamlabError } from "../../src/core/errors";
import { writeFileAtomic } from "../../src/core/atomic-write";
import { writeStaged } from "../../src/core/owned-folder";
import { openCache } from "../../src/experiment/cache";
import { newRunInfo, publishReport } from "../../src/report/publish";

const realWriteFileSync = fs.writeFileSync;
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-disk-full-"));
  dirs.push(dir);
  return dir;
}

/** Every write after the first `allowed` ones fails as on a full disk. */
function fillDiskAfter(allowed: number): void {
  let writes = 0;
  fs.writeFileSync = ((...args: Parameters<typeof realWriteFileSync>) => {
    if (writes++ >= allowed) {
      const error = new Error("ENOSPC: no space left on device, write") as NodeJS.ErrnoException;
      error.code = "ENOSPC";
      error.syscall = "write";
      throw error;
    }
    return realWriteFileSync(...args);
  }) as typeof fs.writeFileSync;
  syncBuiltinESMExports();
}

afterEach(() => {
  fs.writeFileSync = realWriteFileSync;
  syncBuiltinESMExports();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const fullDisk = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof SeamlabError, String(error));
  assert.match(error.message, pattern);
  assert.doesNotMatch(error.message, /^ENOSPC/);
  return true;
};

test("a file written atomically on a full disk names the file and what to free, and leaves no temp file", () => {
  const dir = tempDir();
  fillDiskAfter(0);
  assert.throws(
    () => writeFileAtomic(join(dir, "questions.csv"), "question,answer_span\n"),
    fullDisk(
      /^no space left on the disk holding .*questions\.csv while writing questions\.csv \(.* free of .*\); the partly written temp file was removed\. Free space there: delete files/,
    ),
  );
  assert.deepEqual(readdirSync(dir), []);
});

test("a folder staged on a full disk is removed at once, and the message says how much it needs", () => {
  const dir = tempDir();
  const target = join(dir, "report");
  const files = new Map([
    ["index.html", "x".repeat(3000)],
    ["01.html", "y".repeat(2000)],
  ]);
  fillDiskAfter(2); // the manifest and the first page are written; the second fails
  assert.throws(
    () => writeStaged(target, files, { seamlab: "report" }),
    fullDisk(
      /^no space left on the disk holding .*report while writing report into a staging folder beside it \(.*; it needs about 4\.9 KB\); the partly written staging folder was removed at once\./,
    ),
  );
  assert.deepEqual(readdirSync(dir), [], "no staging folder is left to keep the disk full");
  assert.equal(existsSync(target), false);
});

test("a report published onto a full disk leaves the previous report as it was and no staging folder", () => {
  const dir = tempDir();
  const out = join(dir, "reports");
  const run = newRunInfo("corpus");
  const page = { name: "a", title: "a", status: "ok" as const, headlines: [], charts: 0, tables: 0, run };
  publishReport(out, new Map([["index.html", "first"]]), run, [page]);
  const before = readdirSync(out).map((name) => [name, fs.readFileSync(join(out, name), "utf8")]);
  fillDiskAfter(1);
  assert.throws(
    () =>
      publishReport(
        out,
        new Map([
          ["index.html", "second"],
          ["a.html", "A"],
        ]),
        newRunInfo("corpus"),
        [page],
      ),
    fullDisk(/^no space left on the disk holding .*reports while writing reports into a staging folder beside it/),
  );
  assert.deepEqual(readdirSync(dir), ["reports"], "no staging folder beside the report");
  assert.deepEqual(
    readdirSync(out).map((name) => [name, fs.readFileSync(join(out, name), "utf8")]),
    before,
  );
});

test("a cache entry written on a full disk names the cache folder and the flags that move or skip it", () => {
  const dir = tempDir();
  const cache = openCache(dir);
  fillDiskAfter(0);
  assert.throws(
    () => cache.put("ab".repeat(32), { rows: [1, 2, 3] }),
    fullDisk(
      /while writing .*; the partly written temp file was removed\. Free space there: point --cache-dir at another disk, run with --no-cache/,
    ),
  );
  assert.deepEqual(readdirSync(join(dir, "ab")), [], "no temp file left in the cache");
});
