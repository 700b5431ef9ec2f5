// Issue 15's bad-input cases for the measuring commands, each run through the real CLI: the exit code, a
// message naming the flag or file, no stack trace, and no file of the user's changed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertUserError, hashFolder, inBatches, seamlab, seamlabAsync } from "./spawn-cli";
import { commands } from "../../src/cli/commands";

let dir = "";
let corpus = "";

before(() => {
  dir = mkdtempSync(join(tmpdir(), "seamlab-bad-input-"));
  corpus = join(dir, "corpus");
  mkdirSync(corpus);
  const prose = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} talks about whales and ships.`).join(" ");
  writeFileSync(join(corpus, "a.md"), `# A\n\n## Why whales?\n\n${prose}\n\n## How ships?\n\n${prose}\n`);
  writeFileSync(
    join(dir, "squad.json"),
    JSON.stringify({
      data: [
        {
          title: "t",
          paragraphs: [
            {
              context: "The whale is large.",
              qas: [{ id: "q1", question: "What is large?", answers: [{ text: "whale", answer_start: 4 }] }],
            },
          ],
        },
      ],
    }),
  );
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("the tokens splitter's sizes are labelled in tokens, and --unit chars with it is refused", () => {
  const result = seamlab(["seams", "--corpus", corpus, "--splitter", "tokens", "--size", "64", "--overlap", "16"]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /config\s+tokens 64\/16 tokens/);
  assert.match(result.stdout, /of 16 tokens/);
  assert.doesNotMatch(result.stdout, /of 16 chars/);
  const explicit = seamlab(["seams", "--corpus", corpus, "--splitter", "tokens", "--unit", "chars", "--size", "64"]);
  assertUserError(explicit, /--splitter tokens always counts tokens, but --unit is chars/);
});

test("a threshold outside its range is refused, naming the flag and the range", () => {
  const result = seamlab(["retrieve", "--corpus", corpus, "--near-duplicate-threshold", "5"]);
  assertUserError(result, /--near-duplicate-threshold must be a number from 0 to 1; got "5"/);
});

test("an absurd --size is refused with the accepted range, in plain or scientific notation", () => {
  assertUserError(
    seamlab(["seams", "--corpus", corpus, "--size", "99999999999999999999"]),
    /--size must be a whole number from 1 to 10,000,000 chars; got "99999999999999999999", which is out of range/,
  );
  assertUserError(
    seamlab(["seams", "--corpus", corpus, "--size", "1e12"]),
    /--size must be a whole number from 1 to 10,000,000 chars; got "1e12", which is out of range/,
  );
});

test("a SQuAD file with --corpus is refused: the file brings its own documents", () => {
  const result = seamlab(["retrieve", "--corpus", corpus, "--queries", join(dir, "squad.json")]);
  assertUserError(
    result,
    /--corpus and --queries cannot be used together: the SQuAD file .*squad\.json brings its own/,
  );
});

test("duplicate --overlaps are refused before any work, naming the flag", () => {
  const result = seamlab(["sweep", "--corpus", corpus, "--overlaps", "0,50,50", "--no-cache", "--workers", "0"]);
  assertUserError(result, /--overlaps lists 50 more than once/);
});

test("semantic --overlap 20 names the CLI flags, not a config field", () => {
  const result = seamlab(["seams", "--corpus", corpus, "--splitter", "semantic", "--overlap", "20"]);
  assertUserError(result, /--splitter semantic counts overlap in whole sentences, so --overlap must be 0 \(got 20\)/);
  assert.doesNotMatch(result.stderr, /extra\./);
});

test("--per-seam naming a folder is refused, with or without --force, and the folder is untouched", () => {
  const folder = join(dir, "seams-out");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "mine.txt"), "mine");
  const before = hashFolder(folder);
  for (const force of [[], ["--force"]]) {
    const result = seamlab(["seams", "--corpus", corpus, "--per-seam", folder, ...force]);
    assertUserError(result, /--per-seam .*seams-out is a folder; give the path of a file/);
  }
  assert.equal(hashFolder(folder), before);
});

test("--embed-dims beyond any model is refused at once, naming the range", () => {
  const result = seamlab(["retrieve", "--corpus", corpus, "--retriever", "dense", "--embed-dims", "100000"]);
  assertUserError(result, /--embed-dims must be a whole number from 1 to 65536 dimensions; got "100000"/);
});

test("every command, given bad flags, exits 2 with a message naming the flag and no stack trace", async () => {
  const cases: [string[], RegExp][] = [];
  for (const command of Object.keys(commands)) {
    cases.push([[command, "--no-such-flag"], /Unknown option '--no-such-flag'/]);
  }
  const numeric: Record<string, string> = {
    seams: "size",
    pairs: "overlap",
    "compare-splitters": "configs",
    libraries: "size",
    retrieve: "k",
    compare: "k",
    sweep: "workers",
    embed: "embed-dims",
    report: "timeout",
    queries: "n",
    types: "types", // no numeric flag: a --types file that does not exist
    check: "corpus", // no numeric flag: a value parseArgs refuses
    flips: "k",
    proxies: "k",
  };
  for (const [command, flag] of Object.entries(numeric))
    cases.push([[command, `--${flag}`, "-1x"], new RegExp(`--${flag}`)]);
  assert.deepEqual(Object.keys(numeric).sort(), Object.keys(commands).sort(), "one numeric case per command");
  const results = await inBatches(cases, 2, ([args]) => seamlabAsync(args));
  results.forEach((result, i) => {
    const [args, pattern] = cases[i];
    assertUserError(result, pattern, args.join(" "));
    assert.equal(result.status, 2, args.join(" "));
  });
});

test("a UTF-16 corpus file is read as UTF-16 and a UTF-32 one is refused by name", () => {
  const folder = join(dir, "wide");
  mkdirSync(folder, { recursive: true });
  const text = "# Wide\n\nOne sentence here. Another one there.\n";
  writeFileSync(join(folder, "a.md"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
  const ok = seamlab(["seams", "--corpus", folder, "--json"]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).chars, text.length);
  const utf32 = Buffer.alloc(text.length * 4);
  [...text].forEach((c, i) => utf32.writeUInt32LE(c.codePointAt(0)!, i * 4));
  writeFileSync(join(folder, "b.md"), utf32);
  assertUserError(seamlab(["seams", "--corpus", folder]), /b\.md is UTF-32 \(LE\), which seamlab does not read/);
});

test("FIFOs and dangling symlinks in a corpus are skipped and counted in the output", () => {
  const folder = join(dir, "specials");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "a.md"), "# A\n\nSome text. More text.\n");
  spawnSync("mkfifo", [join(folder, "pipe.md")]);
  symlinkSync(join(folder, "missing.md"), join(folder, "dangling.md"));
  const result = seamlab(["seams", "--corpus", folder]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /1 docs, .* 2 not regular files skipped \(FIFOs, sockets, dangling links\)/);
});

test("--skip-malformed skips a JSONL line that is not JSON, and counts it", () => {
  const queries = join(dir, "q.jsonl");
  writeFileSync(
    queries,
    [
      '{"question": "Why whales?", "answer_span": "Sentence number 3 talks about whales and ships."}',
      "not json at all",
      '{"question": "How ships?", "answer_span": "Sentence number 4 talks about whales and ships."}',
    ].join("\n"),
  );
  assertUserError(seamlab(["retrieve", "--corpus", corpus, "--queries", queries]), /q\.jsonl:2.*not valid JSON/);
  const skipped = seamlab(["retrieve", "--corpus", corpus, "--queries", queries, "--skip-malformed"]);
  assert.equal(skipped.status, 0, skipped.stderr);
  assert.match(skipped.stdout, /labelled set: 3 rows, 2 queries.*malformed skipped 1/);
});

test("a cache entry edited into other valid JSON is recomputed and counted, never used", () => {
  const cacheDir = join(dir, "cache");
  const args = ["sweep", "--corpus", corpus, "--overlaps", "0,20", "--size", "200", "--workers", "0", "--json"];
  const first = seamlab([...args, "--cache-dir", cacheDir]);
  assert.equal(first.status, 0, first.stderr);
  // The first entry whose value holds a number (a grid row; other entries may hold only strings).
  const entries = readdirSync(cacheDir)
    .filter((name) => /^[0-9a-f]{2}$/.test(name))
    .flatMap((shard) => readdirSync(join(cacheDir, shard)).map((name) => join(cacheDir, shard, name)));
  const entry = entries.find((path) => /"value":.*:\d+[,}]/s.test(readFileSync(path, "utf8")))!;
  assert.ok(entry, `no cache entry with a number among ${entries.length}`);
  const [head, body] = readFileSync(entry, "utf8").split('"value":');
  const edited = body.replace(/:(\d+)([,}])/, (_, n, end) => `:${Number(n) + 7}${end}`);
  assert.notEqual(edited, body, "a number was edited");
  writeFileSync(entry, `${head}"value":${edited}`);
  const second = seamlab([...args, "--cache-dir", cacheDir]);
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stderr, /1 cached result\(s\) failed their checksum or key check and were recomputed/);
  const rows = (out: string) => JSON.stringify(JSON.parse(out).rows);
  assert.equal(rows(second.stdout), rows(first.stdout), "the recomputed rows, not the edited ones");
});

test("--embed-dims is bounded by the data: fewer dimensions than chunks and terms, or a message saying so", () => {
  const result = seamlab([
    "retrieve",
    "--corpus",
    corpus,
    "--retriever",
    "dense",
    "--embed-dims",
    "5000",
    "--size",
    "400",
    "--overlap",
    "0",
  ]);
  assertUserError(
    result,
    /--embed-dims 5000 is more than this data supports: dimensions must be fewer than the \d+ chunks/,
  );
});

test("paths of the wrong kind are refused up front, naming the flag, without a stack trace", () => {
  const file = join(dir, "plain-file");
  writeFileSync(file, "x");
  const cases: [string[], RegExp][] = [
    [["report", "--corpus", corpus, "--notebooks", file], /--notebooks .*plain-file is a file/],
    [["sweep", "--corpus", corpus, "--cache-dir", file, "--overlaps", "0"], /--cache-dir .*plain-file is a file/],
    [["report", "--corpus", corpus, "--out", "/proc/self/seamlab-report"], /--out .*cannot create it.*not writable/],
    [
      ["seams", "--corpus", corpus, "--per-seam", "/proc/version", "--force"],
      /--per-seam \/proc\/version: cannot write/,
    ],
  ];
  for (const [args, pattern] of cases) assertUserError(seamlab(args), pattern, args.join(" "));
  assert.equal(readFileSync(file, "utf8"), "x");
});

test("a bad sweep --sample is refused before the corpus is read, naming the flag", () => {
  for (const value of ["bogus", "0", "auto:2"]) {
    const result = seamlab(["sweep", "--corpus", join(dir, "no-such-corpus"), "--sample", value, "--no-cache"]);
    assertUserError(result, /--sample must be auto, auto:H .* got "/, `--sample ${value}`);
  }
  assertUserError(
    seamlab(["sweep", "--corpus", corpus, "--by-type", "--sample", "10", "--no-cache"]),
    /--sample is not available with --by-type/,
  );
});
