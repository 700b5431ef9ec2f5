import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeReportAtomically } from "../../src/report/atomic";

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-atomic-"));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a new report directory is created whole, with a manifest of its files", () => {
  withDir((dir) => {
    const out = join(dir, "reports");
    writeReportAtomically(
      out,
      new Map([
        ["index.html", "i"],
        ["a.html", "a"],
      ]),
    );
    assert.deepEqual(readdirSync(out).sort(), [".seamlab-report.json", "a.html", "index.html"]);
    assert.deepEqual(readdirSync(dir), ["reports"], "no staging dir left behind");
  });
});

test("a second report replaces its own files, removes stale ones, and keeps the user's files", () => {
  withDir((dir) => {
    const out = join(dir, "reports");
    writeReportAtomically(
      out,
      new Map([
        ["index.html", "old"],
        ["01.html", "old"],
      ]),
    );
    writeFileSync(join(out, "screenshot.png"), "mine");
    writeReportAtomically(
      out,
      new Map([
        ["index.html", "new"],
        ["02.html", "new"],
      ]),
    );
    assert.deepEqual(readdirSync(out).sort(), [".seamlab-report.json", "02.html", "index.html", "screenshot.png"]);
    assert.equal(readFileSync(join(out, "index.html"), "utf8"), "new");
    assert.equal(readFileSync(join(out, "screenshot.png"), "utf8"), "mine");
  });
});

test("a failure while writing leaves the previous report untouched and no staging dir", () => {
  withDir((dir) => {
    const out = join(dir, "reports");
    writeReportAtomically(out, new Map([["index.html", "good"]]));
    // A payload writeFileSync rejects makes the write fail part-way, after the first file.
    const broken = new Map<string, unknown>([
      ["a.html", "partial"],
      ["index.html", 42],
    ]);
    assert.throws(() => writeReportAtomically(out, broken as Map<string, string>));
    assert.equal(readFileSync(join(out, "index.html"), "utf8"), "good");
    assert.equal(existsSync(join(out, "a.html")), false);
    assert.deepEqual(readdirSync(dir), ["reports"]);
  });
});

test("file names that could escape the report directory are refused", () => {
  withDir((dir) => {
    assert.throws(() => writeReportAtomically(join(dir, "r"), new Map([["../x.html", "x"]])), /plain file name/);
    assert.equal(existsSync(join(dir, "x.html")), false);
  });
});
