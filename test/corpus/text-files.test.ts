// Files a user names that are not plain UTF-8 text: a labelled set saved as a zip or as UTF-16, a --types file
// that is binary. Each is decoded or refused by name, never parsed as bytes or echoed to the terminal.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SeamlabError } from "../../src/core/errors";
import { loadLabelledSet } from "../../src/corpus/labelled";
import { readTypeOverrides } from "../../src/corpus/type-overrides";

const dir = mkdtempSync(join(tmpdir(), "seamlab-text-files-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const docs = [{ id: "a.md", text: "Tail sampling decides after the whole trace is complete." }];
const csv = "question,answer_span\nwhen does tail sampling decide?,after the whole trace is complete\n";

/** A zip archive holding one stored (uncompressed) file: what a spreadsheet tool's export renamed .csv looks like. */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, Buffer.from(name), data]);
}

const seamlabError = (pattern: RegExp) => (error: unknown) =>
  error instanceof SeamlabError && pattern.test(error.message);

test("a zip renamed .csv is refused as not a text CSV, not reported as a header without rows", () => {
  const path = join(dir, "questions.csv");
  writeFileSync(path, zipOf("questions.csv", csv));
  assert.throws(() => loadLabelledSet(path, docs), seamlabError(/questions\.csv is a zip archive .*, not a text CSV/));
});

test("a UTF-16 CSV is decoded like a UTF-16 corpus file, with or without a byte-order mark, in either byte order", () => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, "utf16le")]);
  const be = Buffer.from(csv, "utf16le").swap16();
  for (const [name, bytes] of [
    ["le.csv", le],
    ["be.csv", be],
  ] as const) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const set = loadLabelledSet(path, docs);
    assert.equal(set.queries.length, 1, name);
    assert.equal(set.queries[0].text, "when does tail sampling decide?");
  }
});

test("a binary --types file is refused by name and none of its bytes are echoed", () => {
  const path = join(dir, "types.bin");
  writeFileSync(path, Buffer.from([0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x41, 0x20, 0x42, 0x0a, 0x00, 0x07]));
  assert.throws(
    () => readTypeOverrides(path),
    (error: unknown) =>
      seamlabError(/--types file .*types\.bin looks binary .*not a text file of rules/)(error) &&
      ![...(error as Error).message].some((c) => c.charCodeAt(0) < 9 || c === "\u001b"),
  );
  const escapes = join(dir, "types.ansi");
  writeFileSync(escapes, "\u001b[31mdocs/** faq\n");
  assert.throws(
    () => readTypeOverrides(escapes),
    seamlabError(/not a text file of rules \(a control character U\+001B/),
  );
});
