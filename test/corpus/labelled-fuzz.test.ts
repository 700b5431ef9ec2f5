// The labelled-set readers under malformed rows: every input either loads or fails with a SeamlabError that names
// the file and a line, never with a raw exception; --skip-malformed skips (and counts) what it cannot read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SeamlabError } from "../../src/core/errors";
import { parseLabelledSet } from "../../src/corpus/labelled";
import { seededRandom } from "../../src/core/random";

const docs = [{ id: "a.md", text: "The whale is large. The ship is small. Ahab is angry." }];
const goodJsonl = [
  '{"question": "What is large?", "answer_span": "The whale is large."}',
  '{"question": "What is small?", "answer_span": "The ship is small.", "doc": "a"}',
];
const goodCsv = ["question,answer_span", "What is large?,The whale is large.", '"Who, angry?",Ahab is angry.'];

const damage = [
  (line: string) => line.slice(0, Math.max(1, Math.floor(line.length / 2))), // truncated
  (line: string) => line.replace(/"/, ""), // a lost quote
  (line: string) => line + "}", // trailing junk
  () => "null",
  () => "[1, 2]",
  () => '"just a string"',
  () => '{"question": 3, "answer_span": ["x"]}',
  () => '{"question": "q", "answer_span": "not in the corpus"}',
  () => "\u0000\u0001binary",
  () => '{"question": "q", "answer_span": "The whale is large.", "start": "NaN"}',
  () => ",,,,,",
  () => '"unterminated, quote',
];

function outcome(text: string, file: string, skipMalformed: boolean): string {
  try {
    const set = parseLabelledSet(text, file, docs, { skipMalformed });
    return `ok ${set.queries.length}/${set.report.rows} skipped ${set.report.skippedMalformed}`;
  } catch (error) {
    assert.ok(error instanceof SeamlabError, `${file}: ${String(error)}\n${text}`);
    assert.match(error.message, new RegExp(`${file.replace(".", "\\.")}(:\\d+|\\b)`), error.message);
    return "error";
  }
}

test("malformed JSONL and CSV rows give a SeamlabError naming file and line, or are skipped and counted", () => {
  const random = seededRandom(15);
  for (let round = 0; round < 300; round++) {
    for (const [file, good] of [
      ["set.jsonl", goodJsonl],
      ["set.csv", goodCsv],
    ] as const) {
      const lines = [...good];
      const at = file.endsWith(".csv")
        ? 1 + Math.floor(random() * (lines.length - 1))
        : Math.floor(random() * lines.length);
      lines.splice(at, 0, damage[Math.floor(random() * damage.length)](lines[at] ?? lines[0]));
      const text = lines.join("\n") + "\n";
      outcome(text, file, false);
      const skipped = outcome(text, file, true);
      if (file.endsWith(".jsonl"))
        assert.match(skipped, /^ok [23]\//, `--skip-malformed keeps the good rows:\n${text}`);
    }
  }
});

test("--skip-malformed skips a JSONL line that is not JSON at all, and counts it", () => {
  const text = [goodJsonl[0], "this is not json", goodJsonl[1]].join("\n");
  assert.throws(
    () => parseLabelledSet(text, "q.jsonl", docs),
    /q\.jsonl:2(, column \d+)?: not valid JSON.*--skip-malformed/,
  );
  const set = parseLabelledSet(text, "q.jsonl", docs, { skipMalformed: true });
  assert.equal(set.queries.length, 2);
  assert.equal(set.report.skippedMalformed, 1);
  assert.equal(set.report.rows, 3);
  assert.match(set.report.malformed[0], /q\.jsonl:2/);
});
