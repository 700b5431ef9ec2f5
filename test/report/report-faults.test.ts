// Issue 15's report cases through the real CLI (`seamlab report --no-execute` renders saved outputs, so no kernel
// starts and each run takes about a second): never overwrite what seamlab did not write, publish only a whole
// report, keep the other pages on --only, and leave the old or the new report whole when killed at any step.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { PUBLISH_STEPS } from "../../src/report/publish";
import { assertUserError, bin, hashFolder, root, seamlab, type CliResult } from "../cli/spawn-cli";
import { publishFaultEnv } from "../helpers/publish-faults";

let work = "";
let corpus = "";
const executed = join(root, "test/fixtures/notebooks/executed");

/** A notebooks folder of `names`, each the executed fixture with `marker` in its title (pages and index show it). */
function notebooks(marker: string, names = ["01-first", "02-second"], extra: string[] = []): string {
  const dir = mkdtempSync(join(work, `nb-${marker}-`));
  const source = JSON.parse(readFileSync(join(executed, "every-output.ipynb"), "utf8"));
  for (const name of names) {
    const nb = structuredClone(source);
    nb.cells[0].source = [`# ${name} ${marker}\n`, "\n", "Plain text.\n"];
    writeFileSync(join(dir, `${name}.ipynb`), JSON.stringify(nb));
  }
  for (const name of extra) writeFileSync(join(dir, name), readFileSync(join(executed, name)));
  return dir;
}

function report(out: string, nbDir: string, more: string[] = [], env: NodeJS.ProcessEnv = {}): CliResult {
  return seamlab(["report", "--no-execute", "--corpus", corpus, "--notebooks", nbDir, "--out", out, ...more], {
    env: { ...process.env, ...env },
  });
}

/** What a reader sees through `out`: every visible name that resolves, with its content. */
function visible(out: string): Map<string, string> {
  const seen = new Map<string, string>();
  for (const name of readdirSync(out).sort()) {
    if (name.startsWith(".") || !existsSync(join(out, name))) continue;
    seen.set(name, readFileSync(join(out, name), "utf8"));
  }
  return seen;
}

/** The report in `out` is exactly one run's: all of `names` resolve, and every file carries the same marker. */
function assertWhole(out: string, names: string[], what: string): string {
  const seen = visible(out);
  assert.deepEqual([...seen.keys()].sort(), [...names].sort(), `${what}: every page resolves`);
  const markers = new Set([...seen.values()].flatMap((text) => text.match(/RUN-[A-Z]/g) ?? []));
  assert.equal(markers.size, 1, `${what}: one run's pages only, saw ${[...markers].join(", ")}`);
  return [...markers][0];
}

/**
 * The report in `out` is whole, or, after a kill in the instant between the switch's two renames, `out` is absent and
 * the old report stands whole beside it (put back by the next run). Returns the marker, and "absent:" before it then.
 */
function assertWholeOrAside(out: string, names: string[], what: string): string {
  if (existsSync(out)) return assertWhole(out, names, what);
  const parent = join(out, "..");
  const aside = readdirSync(parent).filter((name) => name.startsWith(`.${basename(out)}.seamlab-previous-`));
  assert.equal(aside.length, 1, `${what}: ${out} is absent, so the old report is set aside beside it`);
  return `absent:${assertWhole(join(parent, aside[0]), names, `${what} (set aside)`)}`;
}

const fullNames = ["index.html", "01-first.html", "01-first.ipynb", "02-second.html", "02-second.ipynb"];

before(() => {
  work = mkdtempSync(join(tmpdir(), "seamlab-report-faults-"));
  corpus = join(work, "corpus");
  mkdirSync(corpus);
  writeFileSync(join(corpus, "a.md"), "# A\n\n## Why?\n\nBecause.\n");
});

after(() => rmSync(work, { recursive: true, force: true }));

test("a user's own index.html or page in --out is never overwritten, with or without --force", () => {
  const out = join(work, "user-folder");
  mkdirSync(out);
  writeFileSync(join(out, "index.html"), "my own index");
  writeFileSync(join(out, "notes.txt"), "mine");
  const before = hashFolder(out);
  const nb = notebooks("RUN-A");
  assertUserError(report(out, nb), /--out .*user-folder holds files seamlab did not write \(index\.html, notes\.txt\)/);
  assertUserError(
    report(out, nb, ["--force"]),
    /index\.html would be replaced by the report but seamlab did not write it/,
  );
  assert.equal(hashFolder(out), before, "no user file changed");
  rmSync(join(out, "index.html"));
  const forced = report(out, nb, ["--force"]);
  assert.equal(forced.status, 0, forced.stderr);
  assert.equal(readFileSync(join(out, "notes.txt"), "utf8"), "mine", "--force writes beside the user's files");
  assertWhole(out, [...fullNames, "notes.txt"], "forced report");
});

test("--out naming a file is refused before anything runs, and the file is untouched", () => {
  const file = join(work, "a-file");
  writeFileSync(file, "data");
  const result = seamlab(["report", "--corpus", corpus, "--out", file]);
  assertUserError(result, /--out .*a-file is a file; give a folder/);
  assert.doesNotMatch(result.stderr, /running /, "no notebook started");
  assert.equal(readFileSync(file, "utf8"), "data");
});

test("--only updates the named notebook and keeps the others, and the index says which run made each page", () => {
  const out = join(work, "only");
  assert.equal(report(out, notebooks("RUN-A")).status, 0);
  const firstPage = readFileSync(join(out, "01-first.html"), "utf8");
  const result = report(out, notebooks("RUN-B"), ["--only", "02"]);
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual([...visible(out).keys()].sort(), [...fullNames].sort(), "no page or notebook deleted");
  assert.equal(readFileSync(join(out, "01-first.html"), "utf8"), firstPage, "01 kept as it was");
  assert.match(readFileSync(join(out, "02-second.html"), "utf8"), /RUN-B/);
  const index = readFileSync(join(out, "index.html"), "utf8");
  assert.match(index, /01-first RUN-A[\s\S]*\(earlier run\)[\s\S]*02-second RUN-B/);
});

test("a run with a failed notebook leaves the previous report untouched, writes its pages to .failed/ and exits 1", () => {
  const out = join(work, "failing");
  assert.equal(report(out, notebooks("RUN-A")).status, 0);
  const before = hashFolder(out);
  const result = report(out, notebooks("RUN-B", ["01-first", "02-second"], ["failing-cell.ipynb"]));
  assert.equal(result.status, 1);
  assert.match(result.stderr, /failing-cell\.ipynb, code cell \[4\]/);
  assert.match(result.stderr, /NOT published/);
  assert.doesNotMatch(result.stderr, /^\s+at /m);
  assert.doesNotMatch(result.stderr, /report written/);
  assert.ok(existsSync(join(out, ".failed", "failing-cell.html")));
  rmSync(join(out, ".failed"), { recursive: true });
  assert.equal(hashFolder(out), before, "the published report is byte for byte the previous one");
});

test("killed at each step of the swap, the report is the whole old one or the whole new one, and the next run cleans up", () => {
  const out = join(work, "steps");
  assert.equal(report(out, notebooks("RUN-A")).status, 0);
  const next = notebooks("RUN-B");
  const seen: string[] = [];
  for (const step of PUBLISH_STEPS) {
    const killed = report(out, next, [], publishFaultEnv({ SEAMLAB_REPORT_FAULT: step }));
    assert.equal(killed.status, null, `${step}: killed (${killed.stderr})`);
    seen.push(`${step}:${assertWholeOrAside(out, fullNames, `after a kill at ${step}`)}`);
  }
  // Up to the switch the old report is published (between the two renames it stands whole beside the folder, which
  // is absent for that instant); from the switch on, the new one.
  assert.deepEqual(seen, ["staged:RUN-A", "moved-aside:absent:RUN-A", "switched:RUN-B", "pruned:RUN-B"]);
  assert.equal(report(out, notebooks("RUN-C")).status, 0);
  assertWhole(out, fullNames, "after a clean run");
  assert.deepEqual(
    readdirSync(work).filter((name) => name.startsWith(".steps.")),
    [],
    "no staging folder, set-aside report or lock left beside it",
  );
  assert.deepEqual(readdirSync(out).sort(), [".seamlab-manifest.json", ...fullNames].sort(), "plain files only");
});

test("killed between the two renames (no atomic folder exchange in Node), the next report puts the old one back and says so", () => {
  const out = join(work, "between");
  assert.equal(report(out, notebooks("RUN-A")).status, 0);
  const killed = report(out, notebooks("RUN-B"), [], publishFaultEnv({ SEAMLAB_REPORT_FAULT: "moved-aside" }));
  assert.equal(killed.status, null);
  assert.equal(assertWholeOrAside(out, fullNames, "killed between the renames"), "absent:RUN-A");
  // A page of the report set aside, edited meanwhile, is the user's: the next run refuses it before any notebook.
  const [aside] = readdirSync(work).filter((name) => name.startsWith(".between.seamlab-previous-"));
  const page = join(work, aside, "01-first.html");
  const original = readFileSync(page, "utf8");
  writeFileSync(page, original + "<p>my note</p>");
  assertUserError(
    report(out, notebooks("RUN-C"), ["--force"]),
    /is put back first\): 01-first\.html would be replaced by the report but seamlab did not write it/,
  );
  writeFileSync(page, original);
  const next = report(out, notebooks("RUN-C"));
  assert.equal(next.status, 0, next.stderr);
  assert.match(
    next.stderr,
    /put the previous report back into .*between: a run killed while switching it in had set it aside/,
  );
  assert.equal(assertWhole(out, fullNames, "after the next run"), "RUN-C");
  assert.deepEqual(
    readdirSync(work).filter((name) => name.startsWith(".between.")),
    [],
    "nothing left beside it",
  );
});

test("kill -9 at arbitrary moments of a report never leaves a mixed report", async () => {
  const out = join(work, "kill9");
  assert.equal(report(out, notebooks("RUN-A")).status, 0);
  const next = notebooks("RUN-B");
  // Each step of the swap is slowed to 120 ms so that the kills land inside it as well as before and after it.
  for (const delayMs of [700, 1000, 1300, 1600, 1900]) {
    const child = spawn(
      process.execPath,
      [bin, "report", "--no-execute", "--corpus", corpus, "--notebooks", next, "--out", out],
      { cwd: root, env: publishFaultEnv({ SEAMLAB_REPORT_STEP_DELAY_MS: "120" }), stdio: "ignore" },
    );
    const done = new Promise((resolve) => child.on("close", resolve));
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    child.kill("SIGKILL");
    await done;
    assertWholeOrAside(out, fullNames, `kill -9 after ${delayMs} ms`);
  }
});

test("report accepts the default corpus names, checks a bad corpus before any kernel starts, and hides absolute paths", () => {
  const out = join(work, "named");
  const named = seamlab([
    "report",
    "--no-execute",
    "--corpus",
    "moby-dick",
    "--notebooks",
    notebooks("RUN-A"),
    "--out",
    out,
  ]);
  assert.equal(named.status, 0, named.stderr);
  assert.match(readFileSync(join(out, "index.html"), "utf8"), /<code>moby-dick<\/code>/);
  const empty = join(work, "empty-corpus");
  mkdirSync(empty);
  writeFileSync(join(empty, "a.md"), "  \n");
  const bad = seamlab(["report", "--corpus", empty, "--out", join(work, "never")]);
  assertUserError(bad, /all 1 files are empty/);
  assert.doesNotMatch(bad.stderr, /running /, "no kernel started");
  assert.equal(existsSync(join(work, "never")), false);
  const pathOut = join(work, "by-path");
  assert.equal(report(pathOut, notebooks("RUN-A")).status, 0);
  for (const name of readdirSync(pathOut)) {
    if (name.startsWith(".")) continue;
    assert.equal(readFileSync(join(pathOut, name), "utf8").includes(corpus), false, `${name} names ${corpus}`);
  }
});

test("--queries is checked against the corpus before any kernel starts, naming the flag", () => {
  const plain = join(work, "no-headings");
  mkdirSync(plain);
  writeFileSync(join(plain, "a.txt"), "Plain prose without a single heading. ".repeat(20));
  const headers = seamlab(["report", "--corpus", plain, "--queries", "headers", "--out", join(work, "never-h")]);
  assertUserError(headers, /heading/i);
  assert.doesNotMatch(headers.stderr, /running /, "no kernel started");
  const labelled = join(work, "elsewhere.jsonl");
  writeFileSync(
    labelled,
    JSON.stringify({ question: "where?", answer_span: "a sentence found in no document" }) + "\n",
  );
  const none = seamlab(["report", "--corpus", plain, "--queries", labelled, "--out", join(work, "never-l")]);
  assertUserError(none, /--queries .*elsewhere\.jsonl|no question could be placed/);
  assert.doesNotMatch(none.stderr, /running /, "no kernel started");
  assert.equal(existsSync(join(work, "never-h")) || existsSync(join(work, "never-l")), false);
});
