import { test } from "node:test";
import assert from "node:assert/strict";
import { parseLabelledSet } from "../../src/corpus/labelled";
import { SeamlabError } from "../../src/core/errors";

const docs = [
  { id: "notes/a.md", text: "Alpha beta gamma. The answer is here. Alpha beta gamma." },
  { id: "notes/b.md", text: "Nothing to see. Alpha beta gamma." },
];

test("answer-span rows are located once; repeats take the first occurrence and misses are counted by reason", () => {
  const csv =
    "question,answer_span\nwhat?,The answer is here.\nrepeat?,Alpha beta gamma.\ncase?,the ANSWER is here.\nabsent?,not anywhere\n";
  const set = parseLabelledSet(csv, "q.csv", docs);
  assert.equal(set.queries.length, 2);
  assert.deepEqual(set.queries[0].gold, [{ doc: "notes/a.md", start: 18, end: 37 }]);
  assert.deepEqual(set.queries[1].gold, [{ doc: "notes/a.md", start: 0, end: 17 }]);
  assert.equal(set.report.ambiguous, 1);
  assert.deepEqual(set.report.notLocated, { "found only ignoring case": 1, "not in the corpus": 1 });
});

test("answer-span JSONL rows can name their document by file name without extension", () => {
  const jsonl = '{"question": "q", "answer_span": "Alpha beta gamma.", "doc": "b"}\n\n';
  const set = parseLabelledSet(jsonl, "q.jsonl", docs);
  assert.deepEqual(set.queries[0].gold, [{ doc: "notes/b.md", start: 16, end: 33 }]);
  assert.equal(set.report.ambiguous, 0);
});

test("a missing column is an error naming the file, the line and the column", () => {
  assert.throws(
    () => parseLabelledSet("question,answer\nq,a\n", "bad.csv", docs),
    (e: Error) => {
      assert.ok(e instanceof SeamlabError);
      assert.match(e.message, /bad\.csv:1: missing column "answer_span"/);
      return true;
    },
  );
});

test("bad JSON in references names file, line and column, and skipMalformed counts it instead", () => {
  const csv = [
    "question,references,corpus_id",
    `ok?,"[{""content"": ""The answer is here."", ""start_index"": 18, ""end_index"": 37}]",a`,
    `bad?,"[{""content"": oops}]",a`,
  ].join("\n");
  assert.throws(() => parseLabelledSet(csv, "chroma.csv", docs), /chroma\.csv:3, column "references": not valid JSON/);
  const set = parseLabelledSet(csv, "chroma.csv", docs, { skipMalformed: true });
  assert.equal(set.queries.length, 1);
  assert.equal(set.report.skippedMalformed, 1);
  assert.deepEqual(set.queries[0].gold, [{ doc: "notes/a.md", start: 18, end: 37 }]);
});

test("a reference span outside the document text is an error naming the row", () => {
  const csv = `question,references,corpus_id\nq,"[{""content"": ""x"", ""start_index"": 50, ""end_index"": 90}]",a\n`;
  assert.throws(
    () => parseLabelledSet(csv, "c.csv", docs),
    /c\.csv:2, column "references": reference 1 span \[50, 90\) is outside the text of "a" \(length 55\)/,
  );
});

test("a reference whose offsets miss its content is moved to the nearest occurrence and counted", () => {
  const csv = `question,references,corpus_id\nq,"[{""content"": ""Alpha beta gamma."", ""start_index"": 36, ""end_index"": 53}]",a\n`;
  const set = parseLabelledSet(csv, "c.csv", docs);
  assert.deepEqual(set.queries[0].gold, [{ doc: "notes/a.md", start: 38, end: 55 }]);
  assert.equal(set.report.offsetsCorrected, 1);
  assert.deepEqual(set.report.offsetShifts, { "2": 1 });
});

test("empty files and header-only files are errors", () => {
  assert.throws(() => parseLabelledSet("", "empty.csv", docs), /empty\.csv is empty/);
  assert.throws(() => parseLabelledSet("question,answer_span\n", "head.csv", docs), /header but no rows/);
  assert.throws(() => parseLabelledSet('{"question": "q"\n', "broken.jsonl", docs), /broken\.jsonl:1.*not valid JSON/);
});
