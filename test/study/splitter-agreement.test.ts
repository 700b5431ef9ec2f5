import { test } from "node:test";
import assert from "node:assert/strict";
import {
  agreementText,
  lookAlikeFinding,
  splitterAgreement,
  splitterChoiceFinding,
} from "../../src/study/splitter-agreement";

// Three 599-char paragraphs: recursive and langchain keep each alone at 1000/200 (the documented LangChain case);
// a 1000/200 window cuts at 0, 800, 1600 instead.
const docs = [
  { id: "p", text: ["A".repeat(599), "B".repeat(599), "C".repeat(599)].join("\n\n") },
  { id: "short", text: "One short line." },
];

test("recursive and langchain cut LangChain's own example into the same chunks, and the page says so", () => {
  const g = splitterAgreement(docs, "recursive", "langchain", 1000, 200);
  assert.deepEqual([g.chunksA, g.chunksB, g.identical, g.docsDiffering], [4, 4, 4, 0]);
  assert.match(agreementText(g), /exactly the same 4 chunks at size 1,000, overlap 200/);
  assert.match(splitterChoiceFinding(docs, "recursive", 1000, 200), /^Splitter: `recursive` at size 1,000\. /);
  assert.equal(splitterChoiceFinding(docs, "langchain", 1000, 200), "Splitter: `langchain` at size 1,000.");
});

test("splitters that cut differently are counted chunk by chunk and document by document", () => {
  const g = splitterAgreement(docs, "recursive", "window", 1000, 200);
  assert.equal(g.docsDiffering, 1, "the short document is one chunk either way");
  assert.ok(g.identical < g.chunksA);
  assert.match(agreementText(g), /differ on this corpus .* 1 of 2 documents are cut differently/);
});

test("only names that extend another splitter's are compared", () => {
  assert.equal(lookAlikeFinding(docs, ["window", "structure"], 1000, 200), "");
  const text = lookAlikeFinding(docs, ["langchain", "langchain-markdown", "window"], 1000, 200);
  assert.match(text, /^Rows whose names look alike/);
  assert.equal(text.split("\n- ").length - 1, 1);
  assert.match(text, /`langchain` and `langchain-markdown`/);
});
