// publish.ts in-process: a manifest alone never proves a file is seamlab's (its recorded hash must match), the layout
// it writes is what checkOutDir later recognises as seamlab's own, and the published folder is plain files that a
// plain `cp -r` copies whole.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkOutDir,
  cleanStale,
  lockOutDir,
  newRunInfo,
  publishReport,
  readPublished,
  writeFailedPages,
} from "../../src/report/publish";
import { root } from "../cli/spawn-cli";

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
    assert.deepEqual(readdirSync(out).sort(), [".seamlab-manifest.json", "b.html", "index.html"]);
    assert.equal(readFileSync(join(out, "index.html"), "utf8"), "two");
    assert.equal(readPublished(out)?.run.id, second.id);
    assert.deepEqual(readdirSync(dir), ["r"], "nothing is left beside the report: the old one is gone");
  });
});

test("the published pages are plain files: a plain cp -r copies a report whose every page and link resolves", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    const run = newRunInfo("c");
    const index = '<a href="a.html">A</a> <a href="a.ipynb">notebook</a>';
    publishReport(
      out,
      new Map([
        ["index.html", index],
        ["a.html", '<a href="index.html">back</a>'],
        ["a.ipynb", "{}"],
      ]),
      run,
      [page("a", run)],
    );
    const dest = join(dir, "copy");
    mkdirSync(dest);
    // `cp -r reports/x/* dest/`, as the issue did it: the shell's glob leaves out the hidden manifest.
    const names = readdirSync(out).filter((name) => !name.startsWith("."));
    const copy = spawnSync("cp", ["-r", ...names.map((name) => join(out, name)), dest]);
    assert.equal(copy.status, 0, String(copy.stderr));
    assert.deepEqual(readdirSync(dest).sort(), ["a.html", "a.ipynb", "index.html"]);
    for (const name of readdirSync(dest)) {
      assert.ok(lstatSync(join(dest, name)).isFile(), `${name} is a regular file, not a link`);
      const links = [...readFileSync(join(dest, name), "utf8").matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
      for (const link of links) assert.ok(existsSync(join(dest, link)), `${name} links to ${link}, which resolves`);
    }
  });
});

test("a page changed after seamlab wrote it is the user's: refused by name, and kept as it is", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    const first = newRunInfo("c");
    publishReport(out, new Map([["index.html", "one"]]), first, []);
    writeFileSync(join(out, "index.html"), "my notes on this report");
    assert.throws(
      () => checkOutDir(out, ["index.html"], { force: true }),
      /index\.html would be replaced by the report but seamlab did not write it \(index\.html was changed after seamlab wrote it\)/,
    );
    assert.throws(() => checkOutDir(out, ["index.html"]), /holds files seamlab did not write \(index\.html\)/);
    assert.equal(readFileSync(join(out, "index.html"), "utf8"), "my notes on this report");
  });
});

test("with --force, the user's files are carried into the new report as the very same files", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    mkdirSync(out);
    writeFileSync(join(out, "notes.txt"), "mine");
    const inode = lstatSync(join(out, "notes.txt")).ino;
    checkOutDir(out, ["index.html"], { force: true });
    for (const text of ["one", "two"]) publishReport(out, new Map([["index.html", text]]), newRunInfo("c"), []);
    assert.equal(readFileSync(join(out, "notes.txt"), "utf8"), "mine");
    assert.equal(lstatSync(join(out, "notes.txt")).ino, inode, "not a copy: the same file");
    assert.deepEqual(readdirSync(dir), ["r"], "no second name of it is left beside the report");
    mkdirSync(join(out, "drafts"));
    assert.throws(() => checkOutDir(out, ["index.html"], { force: true }), /the folder drafts in it cannot be carried/);
  });
});

test("killed between the two renames, the old report stands whole beside the folder and the next run puts it back", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    publishReport(out, new Map([["index.html", "old"]]), newRunInfo("c"), []);
    const deadPid = 2 ** 22 + 12345; // above the default pid_max, so never a live process
    renameSync(out, join(dir, `.r.seamlab-previous-${deadPid}-abcdef12`));
    mkdirSync(join(dir, `.r.seamlab-staging-${deadPid}-abcdef13`));
    assert.equal(cleanStale(out), 2);
    assert.deepEqual(readdirSync(dir), ["r"]);
    assert.equal(readFileSync(join(out, "index.html"), "utf8"), "old");
  });
});

test("killed between the two renames, the next run's check judges the report set aside, and it is put back and named", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    publishReport(out, new Map([["index.html", "old"]]), newRunInfo("c"), []);
    writeFileSync(join(out, "index.html"), "old, with my note"); // edited after seamlab wrote it: the user's now
    const aside = join(dir, `.r.seamlab-previous-${2 ** 22 + 12345}-abcdef12`);
    renameSync(out, aside);
    assert.throws(
      () => checkOutDir(out, ["index.html"], { force: true }),
      new RegExp(
        `--out ${out} \\(its previous report, set aside as ${aside} by a run killed while switching it, is put back ` +
          `first\\): index\\.html would be replaced by the report but seamlab did not write it \\(index\\.html was ` +
          `changed after seamlab wrote it\\)`,
      ),
    );
    const said: string[] = [];
    assert.equal(
      cleanStale(out, (line) => said.push(line)),
      1,
    );
    assert.deepEqual(said, [
      `put the previous report back into ${out}: a run killed while switching it in had set it aside as ${aside}`,
    ]);
    assert.equal(readFileSync(join(out, "index.html"), "utf8"), "old, with my note");
    // A folder set aside by a process still running is its own business: nothing is judged or put back.
    renameSync(out, join(dir, `.r.seamlab-previous-${process.pid}-abcdef12`));
    checkOutDir(out, ["index.html"]);
    assert.equal(cleanStale(out), 0);
  });
});

test("killed after the switch, the old report set aside is removed by the next run, its .failed/ and the second names of the user's files too", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    mkdirSync(out);
    writeFileSync(join(out, "notes.txt"), "mine");
    const inode = lstatSync(join(out, "notes.txt")).ino;
    publishReport(out, new Map([["index.html", "one"]]), newRunInfo("c"), []);
    writeFailedPages(out, new Map([["index.html", "failed"]]));
    const aside = join(dir, `.r.seamlab-previous-${2 ** 22 + 12345}-abcdef12`);
    renameSync(out, aside);
    mkdirSync(out);
    linkSync(join(aside, "notes.txt"), join(out, "notes.txt"));
    publishReport(out, new Map([["index.html", "two"]]), newRunInfo("c"), []);
    assert.equal(cleanStale(out), 1);
    assert.deepEqual(readdirSync(dir), ["r"], "the set-aside report is gone whole");
    assert.equal(lstatSync(join(out, "notes.txt")).ino, inode);
    assert.equal(readFileSync(join(out, "index.html"), "utf8"), "two");
  });
});

test("a second report into the same folder is refused while the first holds the lock, and a dead holder's lock is taken over", () => {
  withDir((dir) => {
    const out = join(dir, "r");
    const release = lockOutDir(out);
    const other = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `import("${join(root, "src/report/publish.ts")}").then((m) => m.lockOutDir(${JSON.stringify(out)}))`,
      ],
      { cwd: root, encoding: "utf8" },
    );
    assert.match(
      other.stderr,
      new RegExp(`another seamlab report \\(process ${process.pid}\\) is writing this folder`),
    );
    release();
    writeFileSync(join(dir, ".r.seamlab-lock"), `${2 ** 22 + 12345}\n`);
    const again = lockOutDir(out);
    assert.equal(readFileSync(join(dir, ".r.seamlab-lock"), "utf8"), `${process.pid}\nreport\n`);
    again();
    assert.deepEqual(readdirSync(dir), [], "released: no lock file left");
  });
});

test("--out naming the current folder, or one holding it, is refused: switching it would move the shell's folder away", () => {
  withDir((dir) => {
    const inner = join(dir, "r", "sub");
    mkdirSync(inner, { recursive: true });
    const cwd = process.cwd();
    try {
      process.chdir(inner);
      for (const out of [inner, join(dir, "r")])
        assert.throws(() => checkOutDir(out, ["index.html"]), /is the current folder or holds it/);
      assert.doesNotThrow(() => checkOutDir(join(inner, "reports"), ["index.html"]), "a folder below it is fine");
    } finally {
      process.chdir(cwd);
    }
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
