// Files a user points seamlab at that are not text: refused by name through the real CLI, with no byte of them
// reaching the terminal.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";
import { assertUserError, seamlab } from "./spawn-cli";

const dir = tinyCorpusFolder();
after(() => rmSync(dir, { recursive: true, force: true }));

const control = (text: string) => [...text].some((c) => c.charCodeAt(0) < 9 || c === "\u001b");

test("a binary --types file is refused by name, and none of its bytes are echoed", () => {
  const types = join(dir, "types.bin");
  writeFileSync(types, Buffer.from([0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x00, 0x07, 0x41, 0x0a]));
  const result = seamlab(["types", "--corpus", dir, "--types", types]);
  assertUserError(result, /--types file .*types\.bin looks binary .*not a text file of rules/);
  assert.equal(control(result.stderr + result.stdout), false, "no control byte reaches the terminal");
});

test("a zip renamed .csv given to --queries is called a zip archive, not a CSV with a header and no rows", () => {
  const zip = join(dir, "questions.csv");
  writeFileSync(zip, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), Buffer.alloc(40)]));
  const result = seamlab(["retrieve", "--corpus", dir, "--queries", zip, "--splitter", "recursive"]);
  assertUserError(result, /labelled set .*questions\.csv is a zip archive .*, not a text CSV/);
  assert.doesNotMatch(result.stderr, /header but no rows/);
});
