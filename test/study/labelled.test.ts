import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLabelledSet } from "../../src/corpus/labelled";
import { writeAnswerSpanJsonl } from "../../src/study/labelled";

test("header queries written as answer-span JSONL read back to the same gold spans", () => {
  const docs = [
    { id: "a.md", text: "Intro text.\n\nThe first answer sits here. More words.\n\nSecond answer is this one." },
    { id: "b.md", text: "Another doc. Its only answer is unique." },
  ];
  const queries = [
    { id: "q1", text: "Where is the first answer?", gold: [{ doc: "a.md", start: 13, end: 40 }] },
    { id: "q2", text: "What is unique?", gold: [{ doc: "b.md", start: 13, end: 39 }] },
  ];
  const file = writeAnswerSpanJsonl(docs, queries);
  assert.equal(readFileSync(file, "utf8").trim().split("\n").length, 2);
  const set = loadLabelledSet(file, docs);
  assert.deepEqual(
    set.queries.map((q) => q.gold),
    queries.map((q) => q.gold),
  );
  assert.deepEqual(
    set.queries.map((q) => q.text),
    queries.map((q) => q.text),
  );
  assert.equal(writeAnswerSpanJsonl(docs, queries), file, "same content, same file name");
});
