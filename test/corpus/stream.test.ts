// A corpus stream lists the files at once but reads each only when the iteration reaches it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCorpus, streamCorpus } from "../../src/corpus/load";

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-stream-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test("files are read lazily: a file changed after the stream started is read as it is when reached", () => {
  const dir = folder({ "a.md": "first\r\n", "b.md": "second\n", "c.md": "third\n" });
  try {
    const stream = streamCorpus(dir);
    assert.deepEqual(
      stream.files.map((f) => f.id),
      ["a.md", "b.md", "c.md"],
    );
    const docs = stream.docs();
    assert.equal(docs.next().value?.text, "first\n");
    writeFileSync(join(dir, "b.md"), "changed\n");
    assert.equal(docs.next().value?.text, "changed\n");
    rmSync(join(dir, "c.md"));
    assert.throws(() => docs.next(), /cannot read corpus file .*c\.md/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("loadCorpus collects the stream: the same documents, counts of empty files, and the all-empty error", () => {
  const dir = folder({ "a.md": "one\n", "empty.md": "  \n", "z.txt": "two\n" });
  const empty = folder({ "x.md": "\n", "y.md": "" });
  try {
    const stream = streamCorpus(dir);
    const streamed = [...stream.docs()];
    assert.equal(stream.skippedEmpty, 1);
    const loaded = loadCorpus(dir);
    assert.deepEqual(loaded.docs, streamed);
    assert.deepEqual([loaded.skippedEmpty, loaded.files], [1, 3]);
    assert.throws(() => [...streamCorpus(empty).docs()], /all 2 files are empty or whitespace-only/);
    assert.throws(() => loadCorpus(empty), /all 2 files are empty or whitespace-only/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  }
});
