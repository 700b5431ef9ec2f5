// publish.ts in-process: a manifest alone never proves a file is seamlab's (its recorded hash must match), and the
// layout it writes is what checkOutDir later recognises as seamlab's own.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkOutDir, cleanStale, newRunInfo, publishReport, readPublished } from "../../src/report/publish";

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-publish-"));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const page = (name: string, run: ReturnType<typeof newRunInfo>) => ({
  name,
  title: name,
  status: "ok" as const,
  headlines: [],
  charts: 0,
  tables: 0,
  run,
});

test("a published report is recognised as seamlab's, and a second publish replaces it whole", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    const first = newRunInfo("c");
    publishReport(
      out,
      new Map([
        ["index.html", "one"],
        ["a.html", "A1"],
      ]),
      first,
      [page("a", first)],
    );
    assert.doesNotThrow(() => checkOutDir(out, ["index.html", "a.html"]));
    const second = newRunInfo("c");
    publishReport(
      out,
      new Map([
        ["index.html", "two"],
        ["b.html", "B2"],
      ]),
      second,
      [page("b", second)],
    );
    assert.deepEqual(readdirSync(out).sort(), [".seamlab", "b.html", "index.html"]);
    assert.equal(readFileSync(join(out, "index.html"), "utf8"), "two");
    assert.equal(readPublished(out)?.manifest.run.id, second.id);
    assert.deepEqual(readdirSync(join(out, ".seamlab", "runs")), [second.id], "the old run is gone");
  });
});

test("a file edited after seamlab wrote it no longer matches its hash, so it is kept, not deleted", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    const first = newRunInfo("c");
    publishReport(out, new Map([["index.html", "one"]]), first, []);
    const edited = join(out, ".seamlab", "runs", first.id, "index.html");
    writeFileSync(edited, "my notes on this report");
    const second = newRunInfo("c");
    publishReport(out, new Map([["index.html", "two"]]), second, []);
    assert.equal(readFileSync(edited, "utf8"), "my notes on this report");
  });
});

test("a manifest claiming a user's files is not proof: they are neither deleted nor treated as a report", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    const runDir = join(out, ".seamlab", "runs", "20260101T000000Z-999999999-abcdef12");
    mkdirSync(runDir, { recursive: true });
    writeFileSync(join(runDir, "thesis.html"), "a user's file");
    writeFileSync(
      join(runDir, "manifest.json"),
      JSON.stringify({ seamlab: "report", run: {}, files: { "thesis.html": "0".repeat(64) }, pages: [] }),
    );
    symlinkSync("runs/20260101T000000Z-999999999-abcdef12", join(out, ".seamlab", "current.999999999-abcdef12.tmp"));
    cleanStale(out);
    assert.equal(readFileSync(join(runDir, "thesis.html"), "utf8"), "a user's file");
    writeFileSync(join(out, "index.html"), "mine");
    assert.throws(() => checkOutDir(out, ["index.html"], { force: true }), /index\.html would be replaced/);
    assert.ok(existsSync(join(out, "index.html")));
  });
});
