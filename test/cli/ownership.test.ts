// Issue 33 §1 in one place: every command that writes is run, through the real CLI, against folders that hold a
// user's files (some shaped like seamlab's own: a `10/05.json` in a cache folder, an index.html in a report folder, a
// CSV where a labelled file goes), and every user file must be byte for byte as it was afterwards, whether the
// command refused or wrote beside it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
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
import { basename, dirname, join } from "node:path";
import { assertUserError, bin, hashFolder, root, seamlab, type CliResult } from "./spawn-cli";
import { waitFor } from "../helpers/processes";
import { publishFaultEnv } from "../helpers/publish-faults";

let work = "";
let corpus = "";
let notebooks = "";
/** Every user file planted, with the hash of its bytes and its inode (a copy in its place is not the same file). */
const planted = new Map<string, string>();

function plant(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  planted.set(path, fingerprint(path));
  return path;
}

const fingerprint = (path: string): string =>
  `${lstatSync(path).ino}:${createHash("sha256").update(readFileSync(path)).digest("hex")}`;

/** Every user file planted so far is still there, the same file with the same bytes. */
function assertUserFilesIntact(what: string): void {
  for (const [path, print] of planted) {
    assert.ok(existsSync(path), `${what}: ${path} is still there`);
    assert.equal(fingerprint(path), print, `${what}: ${path} is byte for byte the user's`);
  }
}

const sentences = (name: string, from: number) =>
  Array.from({ length: 6 }, (_, i) => `In ${name} the keeper wrote entry ${from + i} about barrels at dusk.`).join(" ");

before(() => {
  work = mkdtempSync(join(tmpdir(), "seamlab-ownership-"));
  corpus = join(work, "corpus");
  for (const name of ["north", "south"]) {
    const sections = [0, 1, 2, 3].map((p) => `## Part ${p} of ${name}\n\n${sentences(name, 10 * p)}\n`);
    plant(join(corpus, `${name}.md`), `# ${name}\n\n${sections.join("\n")}`);
  }
  notebooks = join(work, "notebooks");
  mkdirSync(notebooks);
  const executed = readFileSync(join(root, "test/fixtures/notebooks/executed/every-output.ipynb"));
  writeFileSync(join(notebooks, "01-first.ipynb"), executed);
});

after(() => rmSync(work, { recursive: true, force: true }));

/** A small sweep of the test corpus that gives one verdict (so it can export), and a flips run on it. */
const sweepArgs = () => [
  ...["sweep", "--corpus", corpus, "--queries", "ict", "--ict-n", "10", "--size", "200", "--overlaps", "0,20"],
];
const flipsArgs = () => [
  ...["flips", "--corpus", corpus, "--queries", "ict", "--ict-n", "10"],
  ...["--a", "recursive:200:0", "--b", "recursive:200:20"],
];

test("queries ict|headers|generate --out, --corpus-out and --journal leave a user's CSV, corpus and folder as they were", () => {
  const labelled = plant(join(work, "sets", "mine.csv"), "question,references,corpus_id\nmine,[],north.md\n");
  plant(join(work, "sets", "mine.csv.meta.json"), '{"my":"notes"}');
  const userFolder = join(work, "sets", "theirs");
  plant(join(userFolder, "draft.md"), "# my draft\n");
  const ictArgs = ["queries", "ict", "--corpus", corpus, "--ict-n", "10"];
  const ict = (out: string, corpusOut: string) => [
    ...ictArgs,
    "--out",
    join(work, "sets", out),
    "--corpus-out",
    corpusOut,
  ];
  const runs: [string[], RegExp][] = [
    [[...ictArgs, "--out", labelled], /already exists/],
    [["queries", "headers", "--corpus", corpus, "--out", labelled], /already exists/],
    [ict("a.csv", corpus), /is .*a folder the corpus is read from/],
    [ict("b.csv", userFolder), /cannot prove it wrote it/],
  ];
  const diary = plant(join(work, "sets", "diary.jsonl"), '{"day":"monday"}\n{"day":"tuesday"}\n');
  runs.push([
    [
      ...["queries", "generate", "--corpus", corpus, "--llm-url", "http://127.0.0.1:9/v1", "--llm-model", "m"],
      ...["--out", join(work, "sets", "c.csv"), "--journal", diary],
    ],
    /--journal .*diary\.jsonl exists and is not a reply journal/,
  ]);
  for (const [args, pattern] of runs) assertUserError(seamlab(args), pattern, args.slice(0, 2).join(" "));
  assertUserFilesIntact("queries");
});

test("sweep and seams with --cache-dir, and sweep --clear-cache, touch none of a user's files in the cache folder", () => {
  const cache = join(work, "cache");
  plant(join(cache, "10", "05.json"), '{"dentist":"10:05"}');
  plant(join(cache, "12", "31.json"), '{"party":"12-31"}');
  plant(join(cache, "notes.txt"), "mine");
  const seams = seamlab(["seams", "--corpus", corpus, "--size", "200", "--overlap", "20", "--cache-dir", cache]);
  assert.equal(seams.status, 0, seams.stderr);
  const sweep = seamlab([...sweepArgs(), ...["--cache-dir", cache, "--workers", "0"]]);
  assert.equal(sweep.status, 0, sweep.stderr);
  const cleared = seamlab(["sweep", "--clear-cache", "--cache-dir", cache]);
  assert.equal(cleared.status, 0, cleared.stderr);
  assert.match(cleared.stderr, /cleared [1-9]\d* cached result/);
  assertUserFilesIntact("cache");
  assert.deepEqual(readdirSync(cache).sort(), ["10", "12", "notes.txt"], "every entry of seamlab's own is gone");
});

test("sweep --export, seams --per-seam and flips --html refuse a user's file, with or without --force where it applies", () => {
  const exported = plant(join(work, "out", "chosen.json"), '{"mine":true}');
  const perSeam = plant(join(work, "out", "seams.jsonl"), "mine\n");
  const page = plant(join(work, "out", "flips.html"), "<p>mine</p>");
  assertUserError(seamlab([...sweepArgs(), "--workers", "0", "--export", exported]), /--export/);
  assertUserError(seamlab([...sweepArgs(), "--workers", "0", "--export", exported, "--force"]), /--export/);
  assertUserError(
    seamlab(["seams", "--corpus", corpus, "--size", "200", "--overlap", "20", "--per-seam", perSeam]),
    /--per-seam .* already exists/,
  );
  const flips = flipsArgs();
  assertUserError(seamlab([...flips, "--html", page]), /--html .* already exists/);
  assertUserError(seamlab([...flips, "--html", page, "--force"]), /--html .* not written by seamlab flips/);
  assertUserFilesIntact("exports");
});

function report(out: string, more: string[] = [], env: NodeJS.ProcessEnv = {}): CliResult {
  return seamlab(["report", "--no-execute", "--corpus", corpus, "--notebooks", notebooks, "--out", out, ...more], {
    env: { ...process.env, ...env },
  });
}

test("report --out beside a user's files (--force) keeps them the very same files, run after run", () => {
  const out = join(work, "report-beside");
  plant(join(out, "notes.txt"), "my notes on the report");
  assertUserError(report(out), /holds files seamlab did not write \(notes\.txt\)/);
  for (let run = 0; run < 2; run++) assert.equal(report(out, ["--force"]).status, 0);
  assert.ok(lstatSync(join(out, "index.html")).isFile(), "the report's pages are plain files");
  assertUserFilesIntact("report");
  const index = join(work, "report-own-index");
  plant(join(index, "index.html"), "<h1>my own index</h1>");
  assertUserError(
    report(index, ["--force"]),
    /index\.html would be replaced by the report but seamlab did not write it/,
  );
  assertUserFilesIntact("report over a user's index.html");
  // A published page the user edited is theirs now: the next report names it and leaves it where it is.
  const edited = join(work, "report-edited");
  assert.equal(report(edited).status, 0);
  plant(join(edited, "index.html"), readFileSync(join(edited, "index.html"), "utf8") + "<p>my note</p>");
  assertUserError(
    report(edited, ["--force"]),
    /index\.html would be replaced by the report but seamlab did not write it \(index\.html was changed after seamlab wrote it\)/,
  );
  assertUserFilesIntact("report over an edited page");
});

test("two reports into one --out at once: the second is refused by the lock and the first publishes whole", async () => {
  const out = join(work, "report-twice");
  const first = spawn(
    process.execPath,
    [bin, "report", "--no-execute", "--corpus", corpus, "--notebooks", notebooks, "--out", out],
    { cwd: root, stdio: "ignore", env: publishFaultEnv({ SEAMLAB_REPORT_STEP_DELAY_MS: "3000" }) },
  );
  const done = new Promise<number | null>((resolve) => first.on("close", resolve));
  // Once its report is staged, the first holds the lock for three more steps of 3 s each (the delay of the test).
  await waitFor("the first report to be staged under its lock", 30_000, () =>
    existsSync(join(work, ".report-twice.seamlab-lock")) &&
    readdirSync(work).some((name) => name.startsWith(".report-twice.seamlab-staging-"))
      ? true
      : undefined,
  );
  const second = report(out);
  assertUserError(second, /another seamlab report \(process \d+\) is writing this folder/);
  assert.equal(await done, 0);
  const before = hashFolder(out);
  assert.match(readFileSync(join(out, "index.html"), "utf8"), /01-first/);
  assert.equal(report(out).status, 0, "the lock is released when the first report ends");
  assert.notEqual(hashFolder(out), before, "and the next report publishes");
  assert.equal(existsSync(join(work, ".report-twice.seamlab-lock")), false);
});

test("every writing command is refused while another seamlab writes the same output, and takes over a dead one's lock", () => {
  const dir = join(work, "locked");
  mkdirSync(dir);
  const at = (name: string) => join(dir, name);
  const ict = ["queries", "ict", "--corpus", corpus, "--ict-n", "10"];
  // [the command, the output it must lock, the flag naming it]
  const cases: [string[], string, string][] = [
    [[...ict, "--out", at("q.csv"), "--corpus-out", at("q-corpus")], at("q.csv"), "--out"],
    [[...ict, "--out", at("r.csv"), "--corpus-out", at("q-corpus")], at("q-corpus"), "--corpus-out"],
    [[...sweepArgs(), "--workers", "0", "--export", at("chosen.json")], at("chosen.json"), "--export"],
    [
      ["seams", "--corpus", corpus, "--size", "200", "--overlap", "20", "--per-seam", at("seams.jsonl")],
      at("seams.jsonl"),
      "--per-seam",
    ],
    [[...flipsArgs(), "--html", at("flips.html")], at("flips.html"), "--html"],
    [["report", "--no-execute", "--corpus", corpus, "--notebooks", notebooks, "--out", at("r")], at("r"), "--out"],
  ];
  const lockOf = (output: string) => join(dirname(output), `.${basename(output)}.seamlab-lock`);
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const [args, output, flag] of cases) {
    // A live holder: this test's own process, as if it were a seamlab report still writing there.
    writeFileSync(lockOf(output), `${process.pid}\nreport\n`);
    const refused = seamlab(args);
    assertUserError(
      refused,
      new RegExp(`${flag} ${escaped(output)}: another seamlab report \\(process ${process.pid}\\) is writing this`),
      args.slice(0, 2).join(" "),
    );
    assert.equal(existsSync(output), false, `${flag}: nothing written while the other holds the lock`);
    assert.equal(readFileSync(lockOf(output), "utf8"), `${process.pid}\nreport\n`, `${flag}: its lock is left`);
    // The holder died without releasing it: the next run takes the lock over, writes, and leaves no lock behind.
    writeFileSync(lockOf(output), `${2 ** 22 + 12345}\nqueries\n`);
    const wrote = seamlab(args);
    assert.equal(wrote.status, 0, `${args.slice(0, 2).join(" ")}: ${wrote.stderr}`);
    assert.ok(existsSync(output), `${flag}: written once the lock was taken over`);
    assert.equal(existsSync(lockOf(output)), false, `${flag}: released when the run ends`);
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
  }
  // queries generate's reply journal is appended to: a second run on it is refused before any request is sent.
  const journal = at("replies.jsonl");
  writeFileSync(lockOf(journal), `${process.pid}\nqueries\n`);
  const generate = [
    "queries",
    "generate",
    "--corpus",
    corpus,
    "--llm-url",
    "http://127.0.0.1:9/v1",
    "--llm-model",
    "m",
  ];
  assertUserError(
    seamlab([...generate, "--out", at("g.csv"), "--journal", journal]),
    new RegExp(
      `--journal ${escaped(journal)}: another seamlab queries \\(process ${process.pid}\\) is writing this file`,
    ),
  );
  assert.equal(existsSync(journal), false);
});
