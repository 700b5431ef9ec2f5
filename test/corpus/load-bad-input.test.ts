import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SeamlabError } from "../../src/core/errors";
import { loadCorpus } from "../../src/corpus/load";

/** A fresh temp folder holding `files` (path -> content); removed by the returned cleanup. */
function makeCorpusDir(files: Record<string, string | Buffer>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-corpus-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function assertSeamlabError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof SeamlabError, `expected a SeamlabError, got ${String(error)}`);
    assert.match(error.message, pattern);
    return true;
  });
}

test("an empty folder is a clear error naming the folder", () => {
  const { dir, cleanup } = makeCorpusDir({});
  try {
    assertSeamlabError(() => loadCorpus(dir), new RegExp(`has no .md/.markdown/.txt files.*${dir}`));
  } finally {
    cleanup();
  }
});

test("a folder of only empty files is an error that says so", () => {
  const { dir, cleanup } = makeCorpusDir({ "a.md": "", "b.txt": "\n\n" });
  try {
    assertSeamlabError(() => loadCorpus(dir), /all 2 files are empty/);
  } finally {
    cleanup();
  }
});

test("a binary file is rejected with its path", () => {
  const { dir, cleanup } = makeCorpusDir({ "ok.md": "fine", "bad.md": Buffer.from([0x68, 0x69, 0x00, 0x01]) });
  try {
    assertSeamlabError(
      () => loadCorpus(dir),
      new RegExp(`${join(dir, "bad.md")} looks binary \\(NUL byte at offset 2\\)`),
    );
  } finally {
    cleanup();
  }
});

test("invalid UTF-8 is rejected with its path", () => {
  const { dir, cleanup } = makeCorpusDir({ "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
  try {
    assertSeamlabError(() => loadCorpus(dir), new RegExp(`${join(dir, "latin1.txt")} is not valid UTF-8`));
  } finally {
    cleanup();
  }
});

test("a missing path is a clear error listing what a corpus can be", () => {
  assertSeamlabError(
    () => loadCorpus("/no/such/corpus-folder"),
    /corpus "\/no\/such\/corpus-folder" not found.*moby-dick/,
  );
  assertSeamlabError(() => loadCorpus(""), /--corpus is empty/);
  assertSeamlabError(() => loadCorpus("/no/such/dir/**/*.md"), /base folder \/no\/such\/dir does not exist/);
});

test("a glob that matches nothing is an error, not an empty corpus", () => {
  const { dir, cleanup } = makeCorpusDir({ "a.md": "x" });
  try {
    assertSeamlabError(() => loadCorpus(join(dir, "**/*.txt")), /has no .md\/.markdown\/.txt files/);
  } finally {
    cleanup();
  }
});

test("npm: specs name a missing package or a missing path inside a package", () => {
  assertSeamlabError(
    () => loadCorpus("npm:no-such-package-seamlab/docs"),
    /package "no-such-package-seamlab" is not installed/,
  );
  assertSeamlabError(() => loadCorpus("npm:fastify/no-such-folder"), /fastify has no file or folder "no-such-folder"/);
  assertSeamlabError(() => loadCorpus("npm:@stdlib"), /not a package spec/);
});

test("a default corpus whose installed version differs from the pinned one is refused", () => {
  const root = mkdtempSync(join(tmpdir(), "seamlab-project-"));
  try {
    mkdirSync(join(root, "data"));
    mkdirSync(join(root, "node_modules/fake-docs/docs"), { recursive: true });
    writeFileSync(join(root, "package.json"), "{}");
    writeFileSync(
      join(root, "node_modules/fake-docs/package.json"),
      JSON.stringify({ name: "fake-docs", version: "1.0.0" }),
    );
    writeFileSync(join(root, "node_modules/fake-docs/docs/a.md"), "text");
    const entry = { description: "", package: "fake-docs", version: "2.0.0", licence: "MIT", glob: "docs/*.md" };
    writeFileSync(
      join(root, "data/corpora.json"),
      JSON.stringify({ defaults: { prose: "fake", markdown: "fake" }, corpora: { fake: entry } }),
    );
    assertSeamlabError(
      () => loadCorpus("fake", { projectRoot: root }),
      /pinned to fake-docs@2.0.0 but 1.0.0 is installed; run `npm ci`/,
    );
    entry.version = "1.0.0";
    writeFileSync(
      join(root, "data/corpora.json"),
      JSON.stringify({ defaults: { prose: "fake", markdown: "fake" }, corpora: { fake: entry } }),
    );
    assert.deepEqual(
      loadCorpus("fake", { projectRoot: root }).docs.map((d) => d.id),
      ["a.md"],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
