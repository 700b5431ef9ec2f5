// `seamlab report`'s inputs checked before any kernel starts: the corpus's parameter and label, its queries.
import { test } from "node:test";
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { SeamlabError } from "../../src/core/errors";
import { checkQueries, corpusBytes, corpusFromSpec } from "../../src/report/report-inputs";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";

test("an absolute corpus path is passed to the notebooks as given and shown by its folder's name", () => {
  const dir = tinyCorpusFolder();
  try {
    assert.deepEqual(corpusFromSpec(dir), { parameter: dir, label: basename(dir) });
    assert.ok(corpusBytes(dir) > 100, "the two markdown files' bytes");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a corpus whose files are all empty is refused before any kernel starts", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-empty-corpus-"));
  writeFileSync(join(dir, "empty.md"), "");
  try {
    assert.throws(() => corpusFromSpec(dir), SeamlabError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("header queries and a placeable labelled file pass; a file with no placeable question is refused naming it", () => {
  const dir = tinyCorpusFolder();
  try {
    const corpus = corpusFromSpec(dir);
    checkQueries("headers", "headers", corpus);
    checkQueries("questions.csv", join(dir, "questions.csv"), corpus);
    const stray = join(dir, "stray.csv");
    writeFileSync(stray, "question,answer_span\nwhat is a kernel?,this sentence is in no document\n");
    assert.throws(
      () => checkQueries("stray.csv", stray, corpus),
      (error: unknown) =>
        error instanceof SeamlabError &&
        error.message === `--queries stray.csv: no question could be placed in --corpus ${corpus.label}.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
