// A document sample read without loading the rest of the corpus, and samples drawn from it naming the corpus.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCorpus } from "../../src/corpus/load";
import { documentSample } from "../../src/corpus/sample";
import { readDocumentSample } from "../../src/corpus/sample-read";

function corpus(): string {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-sample-read-"));
  for (const folder of ["a", "b"]) {
    mkdirSync(join(dir, folder));
    for (let i = 0; i < 30; i++)
      writeFileSync(join(dir, folder, `doc-${i}.md`), `# ${folder} ${i}\n\n${"Some words here. ".repeat(5 + i * 3)}\n`);
  }
  return dir;
}

test("the streamed sample holds the same documents as sampling the loaded corpus", () => {
  const dir = corpus();
  try {
    const read = readDocumentSample(dir, 12);
    const loaded = loadCorpus(dir).docs;
    const drawn = documentSample(loaded, 12);
    assert.deepEqual(
      read.docs.map((d) => d.id),
      drawn.docs.map((d) => d.id),
    );
    assert.deepEqual(
      read.docs.map((d) => d.text),
      drawn.docs.map((d) => d.text),
    );
    assert.equal(read.population, 60);
    assert.equal(
      read.populationChars,
      loaded.reduce((s, d) => s + d.text.length, 0),
    );
    // measured again as the notebooks do (a count, all of what was read): it says it is a sample of the corpus
    const again = documentSample(read.docs, 12, "sample 12");
    assert.equal(again.population, 60);
    assert.match(
      again.description,
      /^a seeded sample of 12 of 60 documents, stratified by folder and size \(sample 12\)$/,
    );
    assert.deepEqual(again.strata, drawn.strata, "the corpus's strata, not the sample's own");
    // an unmarked list of the same documents says what it is: all of them
    assert.match(documentSample([...read.docs], 12).description, /^all 12 documents/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a count at least the corpus reads every document", () => {
  const dir = corpus();
  try {
    const read = readDocumentSample(dir, 100);
    assert.equal(read.docs.length, 60);
    assert.match(documentSample(read.docs, 60).description, /^all 60 documents/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
