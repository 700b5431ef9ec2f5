import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
let dir = "";

/** Runs the real CLI (`node bin/seamlab.js ...`), as a user would. */
function seamlab(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, [join(root, "bin/seamlab.js"), ...args], { cwd: root, encoding: "utf8" });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

function assertUserError(result: ReturnType<typeof seamlab>, pattern: RegExp): void {
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), "seamlab-cli-"));
  mkdirSync(join(dir, "corpus"));
  // 26 letters: a 10/3 window gives starts 0, 7, 14, 21 (the chunk at 21 reaches the end).
  writeFileSync(join(dir, "corpus/a.txt"), "abcdefghijklmnopqrstuvwxyz");
  writeFileSync(join(dir, "corpus/b.md"), "One two. Three four.\n\nFive six. Seven eight.\n");
  writeFileSync(join(dir, "corpus/empty.md"), "\n");
  mkdirSync(join(dir, "binary"));
  writeFileSync(join(dir, "binary/x.md"), Buffer.from([1, 0, 2]));
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("seams --help lists the options and exits 0", () => {
  const result = seamlab("seams", "--help");
  assert.equal(result.status, 0);
  assert.match(result.stdout, /--per-seam FILE/);
  assert.match(result.stdout, /Splitters: .*window/);
});

test("pairs and compare-splitters have --help too, and the top-level help lists all three", () => {
  assert.match(seamlab("pairs", "--help").stdout, /straddles a paragraph break/);
  assert.match(seamlab("compare-splitters", "--help").stdout, /--configs LIST/);
  const top = seamlab("--help").stdout;
  for (const name of ["seams", "pairs", "compare-splitters"]) assert.match(top, new RegExp(`\\n  ${name} `));
});

test("seams --json on a window split reports exact overlaps for every seam", () => {
  const result = seamlab(
    "seams",
    "--corpus",
    join(dir, "corpus"),
    "--splitter",
    "window",
    "--size",
    "10",
    "--overlap",
    "3",
    "--json",
  );
  assert.equal(result.status, 0, result.stderr);
  const json = JSON.parse(result.stdout);
  assert.equal(json.docs, 2);
  assert.equal(json.skippedEmpty, 1);
  assert.equal(json.chars, 26 + 45);
  assert.equal(json.zeroOverlapSeams, 0);
  assert.equal(json.zeroOverlapPct, 0);
  assert.equal(json.meanOverlap, 3);
  assert.equal(json.medianOverlap, 3);
  assert.equal(json.lostChars, 0);
  assert.equal(json.maxChunkLength, 10);
  for (const key of ["chunks", "seams", "indexRatio", "seamDamage", "paragraphs", "backwardOpeners"])
    assert.ok(key in json, key);
  assert.equal(json.seamDamage.pairs, 1);
});

test("seams prints a readable table by default", () => {
  const result = seamlab(
    "seams",
    "--corpus",
    join(dir, "corpus"),
    "--splitter",
    "window",
    "--size",
    "10",
    "--overlap",
    "3",
  );
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /zero-overlap seams\s+0 \(0\.0%\)/);
  assert.match(result.stdout, /overlap histogram/);
});

test("--per-seam writes one JSON line per seam and refuses to overwrite without --force", () => {
  const out = join(dir, "seams.jsonl");
  const args = [
    "seams",
    "--corpus",
    join(dir, "corpus/a.txt"),
    "--splitter",
    "window",
    "--size",
    "10",
    "--overlap",
    "3",
    "--json",
    "--per-seam",
    out,
  ];
  assert.equal(seamlab(...args).status, 0);
  const lines = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.deepEqual(
    lines.map((l) => [l.doc, l.index, l.prevEnd, l.nextStart, l.overlap]),
    [
      ["a.txt", 0, 10, 7, 3],
      ["a.txt", 1, 17, 14, 3],
      ["a.txt", 2, 24, 21, 3],
    ],
  );
  assertUserError(seamlab(...args), /--per-seam .*seams\.jsonl already exists; pass --force/);
  assert.equal(seamlab(...args, "--force").status, 0);
  assert.ok(!existsSync(join(dir, `.seams.jsonl.${process.pid}.tmp`)));
});

test("pairs --json reports pairs, kept and keptPct", () => {
  // b.md's one straddling pair is "Three four.\n\nFive six." at [9, 31).
  const pairs = (size: string, overlap: string) =>
    JSON.parse(
      seamlab(
        "pairs",
        "--corpus",
        join(dir, "corpus/b.md"),
        "--splitter",
        "window",
        "--size",
        size,
        "--overlap",
        overlap,
        "--json",
      ).stdout,
    );
  const cut = pairs("30", "10"); // windows [0,30) and [20,45): neither holds [9, 31)
  assert.deepEqual([cut.pairs, cut.kept, cut.keptPct], [1, 0, 0]);
  const whole = pairs("40", "10"); // [0,40) holds it
  assert.deepEqual([whole.pairs, whole.kept, whole.keptPct], [1, 1, 100]);
});

test("compare-splitters prints one row per config", () => {
  const result = seamlab(
    "compare-splitters",
    "--corpus",
    join(dir, "corpus"),
    "--configs",
    "window:10:3,window:10:0",
    "--json",
  );
  assert.equal(result.status, 0, result.stderr);
  const json = JSON.parse(result.stdout);
  assert.deepEqual(
    json.rows.map((r: { config: string }) => r.config),
    ["window:10:3", "window:10:0"],
  );
  assert.equal(json.rows[0].meanOverlap, 3);
  assert.equal(json.rows[1].zeroOverlapPct, 100);
  const table = seamlab("compare-splitters", "--corpus", join(dir, "corpus"), "--configs", "window:10:3");
  assert.match(table.stdout, /config\s+chunks\s+zero-overlap seams/);
});

test("bad numbers, bad configs, missing and binary corpora give a message and a non-zero exit, no stack", () => {
  assertUserError(
    seamlab("seams", "--size", "abc"),
    /--size must be a whole number from 1 to 10,000,000 chars; got "abc"/,
  );
  assertUserError(seamlab("seams", "--overlap", "-5"), /--overlap/);
  assertUserError(
    seamlab("seams", "--corpus", join(dir, "corpus"), "--size", "100", "--overlap", "100", "--splitter", "window"),
    /overlap/,
  );
  assertUserError(seamlab("seams", "--unit", "words"), /--unit must be chars or tokens/);
  assertUserError(seamlab("seams", "--corpus", join(dir, "nope")), /not found/);
  assertUserError(seamlab("seams", "--corpus", join(dir, "binary")), /x\.md looks binary/);
  assertUserError(seamlab("seams", "--corpus", join(dir, "corpus"), "--splitter", "nosuch"), /nosuch/);
  assertUserError(
    seamlab("compare-splitters", "--configs", "window:10"),
    /--configs item "window:10" must be splitter:size:overlap/,
  );
  assertUserError(seamlab("seams", "--bogus"), /bogus/);
});

test("a re-run after editing one file measures only that file, prints the same numbers, and reports peak RSS", () => {
  const corpus = join(dir, "cached-corpus");
  const cache = join(dir, "cache");
  mkdirSync(corpus);
  for (const name of ["a", "b", "c"])
    writeFileSync(join(corpus, `${name}.md`), `# ${name}\n\nOne two. Three.\n\nFour.\n`);
  const args = ["seams", "--corpus", corpus, "--splitter", "recursive", "--size", "12", "--overlap", "4"];
  const cold = seamlab(...args, "--cache-dir", cache, "--json");
  assert.equal(cold.status, 0, cold.stderr);
  assert.match(cold.stderr, /seams: 3 docs \(3 measured, 0 from the cache\) in [\d.]+ s, peak RSS \d+ MB/);
  const warm = seamlab(...args, "--cache-dir", cache, "--json");
  assert.match(warm.stderr, /\(0 measured, 3 from the cache\)/);
  assert.equal(warm.stdout, cold.stdout);
  writeFileSync(join(corpus, "b.md"), "# b\n\nFive six seven. Eight nine ten eleven.\n");
  const edited = seamlab(...args, "--cache-dir", cache, "--json");
  assert.match(edited.stderr, /\(1 measured, 2 from the cache\)/);
  const uncached = seamlab(...args, "--no-cache", "--json");
  assert.match(uncached.stderr, /\(3 measured, 0 from the cache\)/);
  assert.equal(edited.stdout, uncached.stdout);
  assert.notEqual(edited.stdout, cold.stdout);
  assertUserError(seamlab(...args, "--cache-dir", join(corpus, "a.md")), /--cache-dir .*a\.md is a file/);
});

test("a corpus file that fails mid-stream leaves no --per-seam file behind, not even a partial one", () => {
  const corpus = join(dir, "fails-late");
  mkdirSync(corpus);
  writeFileSync(join(corpus, "a.md"), "abcdefghijklmnopqrstuvwxyz\n");
  writeFileSync(join(corpus, "z.md"), Buffer.from([1, 0, 2]));
  const out = join(dir, "late.jsonl");
  const args = ["seams", "--corpus", corpus, "--splitter", "window", "--size", "10", "--overlap", "3"];
  assertUserError(seamlab(...args, "--no-cache", "--per-seam", out), /z\.md looks binary/);
  assert.ok(!existsSync(out));
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.includes("late.jsonl")),
    [],
  );
});

test("--sample measures a stated sample of the documents, with cluster-bootstrap CIs, and is checked first", () => {
  const args = ["seams", "--corpus", join(dir, "corpus"), "--splitter", "window", "--size", "10", "--overlap", "3"];
  const table = seamlab(...args, "--sample", "1", "--no-cache");
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /corpus .*\(2 docs, 71 chars, 1 empty skipped\)/);
  assert.match(
    table.stdout,
    /sample\s+a seeded sample of 1 of 2 documents, stratified by folder and size \(--sample 1\)/,
  );
  assert.match(table.stdout, /zero-overlap seams\s+0 \(0\.0%\) \[95% CI 0\.0%–\d+\.\d%\]/);
  const json = JSON.parse(seamlab(...args, "--sample", "all", "--no-cache", "--json").stdout);
  assert.equal(json.docs, 2);
  assert.deepEqual([json.sample.documents, json.sample.population], [2, 2]);
  assert.equal(json.sample.description, "all 2 documents");
  assert.equal(json.sample.zeroOverlap.low, 0);
  assert.ok(json.sample.kept.high <= 1);
  assertUserError(seamlab(...args, "--sample", "some"), /--sample must be auto, auto:H .*got "some"/);
  assertUserError(seamlab(...args, "--sample", "0"), /--sample must be/);
});

test("--per-seam --text adds each seam's text, plain in JSON: what both chunks share and what neither holds", () => {
  mkdirSync(join(dir, "text"), { recursive: true });
  // A 10/3 window over 26 letters shares 3 letters at each seam; recursive at 12/0 on two short paragraphs leaves the
  // blank line between them in neither chunk.
  writeFileSync(join(dir, "text/a.txt"), "abcdefghijklmnopqrstuvwxyz");
  const out = join(dir, "text/window.jsonl");
  const textArgs = ["--per-seam", out, "--text", "--text-chars", "4"];
  const window = seamlab(
    "seams",
    "--corpus",
    join(dir, "text/a.txt"),
    ..."--splitter window --size 10 --overlap 3".split(" "),
    ...textArgs,
  );
  assert.equal(window.status, 0, window.stderr);
  const lines = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  // chunk [0, 10) then [7, 17): shared "hij", 4 before it, 4 after it
  assert.deepEqual(
    [lines[0].prevEnd, lines[0].nextStart, lines[0].before, lines[0].shared, lines[0].between, lines[0].after],
    [10, 7, "defg", "hij", "", "klmn"],
  );
  assert.equal(lines.length, 3);
  // the last seam: [14, 24) then [21, 26) share "vwx", and the text ends 2 letters later
  assert.deepEqual([lines[2].shared, lines[2].after], ["vwx", "yz"]);

  writeFileSync(join(dir, "text/b.md"), "One <b>two</b>.\n\nThree & four.");
  const gapOut = join(dir, "text/gap.jsonl");
  const args = ["--splitter", "recursive", "--size", "16", "--overlap", "0", "--per-seam", gapOut, "--text"];
  const gap = seamlab("seams", "--corpus", join(dir, "text/b.md"), ...args);
  assert.equal(gap.status, 0, gap.stderr);
  const [seam] = readFileSync(gapOut, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.deepEqual(
    [seam.before, seam.shared, seam.between, seam.after],
    ["One <b>two</b>.", "", "\n\n", "Three & four."],
  );
});

test("--per-seam FILE.html --text writes a page of every seam with the corpus text escaped and no script", () => {
  mkdirSync(join(dir, "html"), { recursive: true });
  writeFileSync(join(dir, "html/evil.md"), "<script>alert(1)</script> one.\n\nTwo <img src=x onerror=alert(2)> & end.");
  const out = join(dir, "html/seams.html");
  const args = ["--splitter", "recursive", "--size", "40", "--overlap", "0", "--per-seam", out, "--text"];
  const result = seamlab("seams", "--corpus", join(dir, "html/evil.md"), ...args);
  assert.equal(result.status, 0, result.stderr);
  const page = readFileSync(out, "utf8");
  assert.ok(!page.includes("<script") && !page.includes("<img"), "corpus markup stays text");
  assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(page, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/);
  assert.equal(page.split("<tr><td>").length - 1, 1, "one seam, one row");
  assert.match(page, /class="seam"/, "the seam shares nothing and is marked");
});

test("--text needs --per-seam, --text-chars needs --text, and an HTML --per-seam needs --text", () => {
  const corpus = join(dir, "corpus/a.txt");
  assertUserError(seamlab("seams", "--corpus", corpus, "--text"), /--text adds each seam's text to --per-seam FILE/);
  assertUserError(
    seamlab("seams", "--corpus", corpus, "--per-seam", join(dir, "x.jsonl"), "--text-chars", "5"),
    /--text-chars goes with --text/,
  );
  assertUserError(
    seamlab("seams", "--corpus", corpus, "--per-seam", join(dir, "x.html")),
    /an HTML page shows each seam's text; add --text/,
  );
  assert.equal(existsSync(join(dir, "x.html")), false);
});
