import { test } from "node:test";
import assert from "node:assert/strict";
import { countNonWhitespace, paragraphRegions } from "../../src/text/paragraphs";

test("paragraphs are separated by blank lines, including lines holding only spaces, and trimmed", () => {
  const text = "  First line\nstill first.\n\nSecond.\n   \n\n\tThird  \n";
  const slices = paragraphRegions(text).map((r) => text.slice(r.start, r.end));
  assert.deepEqual(slices, ["First line\nstill first.", "Second.", "Third"]);
  assert.deepEqual(paragraphRegions(text)[0], { start: 2, end: 25 });
});

test("a whitespace-only text has no paragraphs and a single line is one paragraph", () => {
  assert.deepEqual(paragraphRegions(" \n\n \n"), []);
  assert.deepEqual(paragraphRegions("one"), [{ start: 0, end: 3 }]);
});

test("non-whitespace counting matches a regex count on mixed text", () => {
  const text = "a b\tc\n\u00a0d\u2003e";
  assert.equal(countNonWhitespace(text, 0, text.length), text.replace(/\s/g, "").length);
  assert.equal(countNonWhitespace(text, 1, 4), 1);
});
