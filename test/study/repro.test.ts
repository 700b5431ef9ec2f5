import { test } from "node:test";
import assert from "node:assert/strict";
import { fillerParagraph, reproDoc, reproRows } from "../../src/study/seams";

test("filler paragraphs have exactly the asked length and no line break", () => {
  for (const length of [10, 201, 599]) {
    const text = fillerParagraph(length, 3);
    assert.equal(text.length, length);
    assert.ok(!text.includes("\n"));
    assert.ok(text.endsWith("."));
  }
});

test("the repro document is three paragraphs joined by blank lines", () => {
  const doc = reproDoc(599, 3);
  assert.equal(doc.text.length, 3 * 599 + 2 * 2);
  assert.equal(doc.text.split("\n\n").length, 3);
});

// LangChain's documented behaviour (DESIGN.md, checked against the real package): three 599-character paragraphs
// at size 1000 / overlap 200 give three chunks with no shared text.
test("langchain and recursive return three chunks sharing nothing on the three-paragraph repro", () => {
  const rows = reproRows(reproDoc(599, 3), ["langchain", "recursive"], 1000, 200);
  for (const splitter of ["langchain", "recursive"]) {
    const mine = rows.filter((r) => r.splitter === splitter);
    assert.deepEqual(
      mine.map((r) => [r.start, r.end]),
      [
        [0, 599],
        [601, 1200],
        [1202, 1801],
      ],
    );
    assert.deepEqual(
      mine.map((r) => r.sharedWithPrevious),
      [null, 0, 0],
    );
  }
});

test("a plain window shares exactly the overlap with its predecessor", () => {
  const rows = reproRows(reproDoc(599, 3), ["window"], 1000, 200);
  // step 800 over 1801 chars: [0,1000), [800,1800), [1600,1801)
  assert.deepEqual(
    rows.map((r) => [r.start, r.end, r.sharedWithPrevious]),
    [
      [0, 1000, null],
      [800, 1800, 200],
      [1600, 1801, 200],
    ],
  );
});
