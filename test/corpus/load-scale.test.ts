import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCorpus } from "../../src/corpus/load";

test("a corpus of 2,000 files in 20 folders loads completely, sorted, with the right text", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-scale-"));
  try {
    for (let folder = 0; folder < 20; folder++) {
      mkdirSync(join(dir, `f${String(folder).padStart(2, "0")}`));
      for (let file = 0; file < 100; file++) {
        const id = `f${String(folder).padStart(2, "0")}/doc${String(file).padStart(3, "0")}.md`;
        writeFileSync(join(dir, id), `# ${id}\r\n\r\nParagraph of ${id}.\r\n`);
      }
    }
    const corpus = loadCorpus(dir);
    assert.equal(corpus.docs.length, 2000);
    assert.equal(corpus.docs[0].id, "f00/doc000.md");
    assert.equal(corpus.docs[1999].id, "f19/doc099.md");
    for (const doc of corpus.docs) assert.equal(doc.text, `# ${doc.id}\n\nParagraph of ${doc.id}.\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
