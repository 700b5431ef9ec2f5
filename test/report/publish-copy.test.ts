// Issue 33 §6: teams publish a report by copying, zipping or uploading its folder. A report written by the real CLI
// is copied with a plain `cp -r reports/x/* dest/` (the command), `cp -r reports/x dest` and `zip -r`, and
// every page is a regular file in the copy, and every relative link in a page resolves there.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, seamlab } from "../cli/spawn-cli";

let work = "";
let out = "";
const pages = ["01-first.html", "01-first.ipynb", "02-second.html", "02-second.ipynb", "index.html"];

before(() => {
  work = mkdtempSync(join(tmpdir(), "seamlab-publish-copy-"));
  const corpus = join(work, "corpus");
  mkdirSync(corpus);
  writeFileSync(join(corpus, "a.md"), "# A\n\n## Why?\n\nBecause.\n");
  const notebooks = join(work, "notebooks");
  mkdirSync(notebooks);
  const executed = readFileSync(join(root, "test/fixtures/notebooks/executed/every-output.ipynb"));
  for (const name of ["01-first", "02-second"]) writeFileSync(join(notebooks, `${name}.ipynb`), executed);
  out = join(work, "reports", "x");
  // Twice, so that the copy is of a report that replaced an earlier one.
  for (let run = 0; run < 2; run++) {
    const result = seamlab(["report", "--no-execute", "--corpus", corpus, "--notebooks", notebooks, "--out", out]);
    assert.equal(result.status, 0, result.stderr);
  }
});

after(() => rmSync(work, { recursive: true, force: true }));

/** Every page in `dir` is a regular file, and every relative href/src in its HTML names a file that is there. */
function assertSelfContained(dir: string, what: string): void {
  assert.deepEqual(
    readdirSync(dir)
      .filter((name) => !name.startsWith("."))
      .sort(),
    pages,
    `${what}: every page`,
  );
  let links = 0;
  for (const name of pages) {
    assert.ok(lstatSync(join(dir, name)).isFile(), `${what}: ${name} is a regular file`);
    if (!name.endsWith(".html")) continue;
    for (const [, target] of readFileSync(join(dir, name), "utf8").matchAll(/(?:href|src)="([^"#:]+)(?:#[^"]*)?"/g)) {
      links++;
      assert.ok(
        existsSync(join(dir, decodeURIComponent(target))),
        `${what}: ${name} links to ${target}, which is there`,
      );
    }
  }
  assert.ok(links >= 4, `${what}: the index links each page and notebook (saw ${links} links)`);
}

test("cp -r reports/x/* dest/ copies a whole report: plain files whose links all resolve", () => {
  const dest = join(work, "dest-glob");
  mkdirSync(dest);
  const names = readdirSync(out).filter((name) => !name.startsWith(".")); // what the shell's * expands to
  const copy = spawnSync("cp", ["-r", ...names.map((name) => join(out, name)), dest], { encoding: "utf8" });
  assert.equal(copy.status, 0, copy.stderr);
  assertSelfContained(dest, "cp -r x/*");
});

test("cp -r of the folder itself, and zip -r without following links, keep the whole report", () => {
  const dest = join(work, "dest-folder");
  const copy = spawnSync("cp", ["-r", out, dest], { encoding: "utf8" });
  assert.equal(copy.status, 0, copy.stderr);
  assertSelfContained(dest, "cp -r x");
  const zip = spawnSync("zip", ["-q", "-r", "-y", join(work, "x.zip"), "."], { cwd: out, encoding: "utf8" });
  if (zip.error) return; // no zip on this machine: the copies above stand
  assert.equal(zip.status, 0, zip.stderr);
  const unzipped = join(work, "unzipped");
  const unzip = spawnSync("unzip", ["-q", join(work, "x.zip"), "-d", unzipped], { encoding: "utf8" });
  assert.equal(unzip.status, 0, unzip.stderr);
  assertSelfContained(unzipped, "zip -r -y (links stored as links)");
});
