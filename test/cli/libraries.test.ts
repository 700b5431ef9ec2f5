import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { librarySplitters } from "../../src/splitters/libraries";

const root = fileURLToPath(new URL("../..", import.meta.url));
let dir = "";

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
  dir = mkdtempSync(join(tmpdir(), "seamlab-libraries-"));
  mkdirSync(join(dir, "corpus"));
  // Three 3-letter paragraphs: at 8/3 LangChain's CharacterTextSplitter gives "aaa\n\nbbb" and "bbb\n\nccc".
  writeFileSync(join(dir, "corpus/a.md"), "aaa\n\nbbb\n\nccc");
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("libraries --help says what every library's size and overlap count", () => {
  const result = seamlab("libraries", "--help");
  assert.equal(result.status, 0);
  for (const spec of librarySplitters)
    assert.match(result.stdout, new RegExp(`\\n {2}${spec.name} +${spec.api.slice(0, 20)}`));
  assert.match(result.stdout, /RecursiveChunker has NO overlap/);
  assert.match(seamlab("--help").stdout, /\n {2}libraries /);
});

test("libraries --json measures every library splitter at one setting, with realised against configured overlap", () => {
  const corpus = join(dir, "corpus");
  const result = seamlab("libraries", "--corpus", corpus, "--size", "8", "--overlap", "3", "--unit", "chars", "--json");
  assert.equal(result.status, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  assert.equal(out.versions["@mastra/rag"], "2.6.4");
  const rows = out.tables[0].rows as { splitter: string; meanOverlap: number; realisedRatio: number | null }[];
  const names = rows.map((r) => r.splitter);
  for (const name of [
    "langchain",
    "langchain-character",
    "llamaindex-sentence",
    "mastra-recursive",
    "chonkie-recursive",
  ])
    assert.ok(names.includes(name), name);
  assert.ok(!names.includes("langchain-token"), "token-only splitters are left out of a chars table");
  const character = rows.find((r) => r.splitter === "langchain-character")!;
  assert.equal(character.meanOverlap, 3);
  assert.equal(character.realisedRatio, 1);
  const chonkie = rows.find((r) => r.splitter === "chonkie-recursive") as unknown as { meaning: string };
  assert.match(chonkie.meaning, /has no overlap setting/);
});

test("libraries and compare-splitters refuse bad flags before any work, naming the flag", () => {
  assertUserError(seamlab("libraries", "--unit", "words"), /--unit must be chars or tokens/);
  assertUserError(seamlab("libraries", "--splitters", "nope"), /unknown --splitter "nope"/);
  assertUserError(
    seamlab("libraries", "--splitters", "mastra-token", "--unit", "chars", "--size", "10", "--overlap", "2"),
    /mastra-token always counts tokens/,
  );
  assertUserError(
    seamlab("compare-splitters", "--configs", "window:10:2", "--libraries"),
    /use one of --configs, --splitters and --libraries/,
  );
  assertUserError(
    seamlab("compare-splitters", "--configs", "window:10:2", "--size", "5"),
    /--size goes with --splitters/,
  );
});

test("compare-splitters --splitters takes any mix of built-in and library splitters", () => {
  const corpus = join(dir, "corpus");
  const result = seamlab(
    "compare-splitters",
    "--corpus",
    corpus,
    "--splitters",
    "window,langchain-character,chonkie-token",
    "--size",
    "8",
    "--overlap",
    "3",
    "--json",
  );
  assert.equal(result.status, 0, result.stderr);
  const rows = JSON.parse(result.stdout).rows as { splitter: string; chunks: number; meanOverlap: number }[];
  assert.deepEqual(
    rows.map((r) => r.splitter),
    ["window", "langchain-character", "chonkie-token"],
  );
  // 13 chars, window 8 stepping 5: starts 0, 5 (reaches the end): one seam of exactly 3.
  assert.equal(rows[0].chunks, 2);
  assert.equal(rows[1].meanOverlap, 3);
});

test("--sample-chars measures a named, stratified sample of a larger corpus and leaves hit rate@5 out unless asked", () => {
  const corpus = join(dir, "larger");
  mkdirSync(corpus);
  // 30 documents of about 400 characters with "##" headings (so header queries exist): 12,000 characters.
  for (let i = 0; i < 30; i++) {
    const words = Array.from({ length: 60 }, (_, j) => `w${(i * 7 + j) % 97}`).join(" ");
    writeFileSync(join(corpus, `doc-${i}.md`), `# Doc ${i}\n\n## Part ${i}\n\n${words}.\n\n${words}.\n`);
  }
  const args = ["libraries", "--corpus", corpus, "--size", "200", "--overlap", "40", "--splitters", "langchain"];
  const sampled = seamlab(...args, "--sample-chars", "4000");
  assert.equal(sampled.status, 0, sampled.stderr);
  assert.match(sampled.stdout, /sample a seeded sample of 20 of 30 documents, stratified by folder and size/);
  assert.match(sampled.stdout, /hit rate@5 left out on a sampled corpus: add --hit-rate/);
  assert.doesNotMatch(sampled.stdout, /hit rate@5\s*\n/);
  const json = JSON.parse(seamlab(...args, "--sample-chars", "4000", "--hit-rate", "--json").stdout);
  assert.deepEqual([json.sample.documents, json.sample.population], [20, 30]);
  assert.ok(json.queries > 0, "hit rate@5 ran on the whole corpus's header queries");
  assert.equal(json.tables[0].rows[0].chunks > 0, true);
  assert.notEqual(json.tables[0].rows[0].hitRate, null);
  const whole = JSON.parse(seamlab(...args, "--sample-chars", "all", "--json").stdout);
  assert.equal(whole.sample, undefined);
  assert.ok(whole.tables[0].rows[0].chunks > json.tables[0].rows[0].chunks, "the sample splits fewer documents");
  assertUserError(seamlab(...args, "--sample-chars", "lots"), /--sample-chars must be all or a whole number/);
  assertUserError(seamlab(...args, "--sample-chars", "999"), /--sample-chars must be all .*got "999"/);
});
