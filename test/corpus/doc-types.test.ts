import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyDoc, countLetters, typeAt, typeBreakdown } from "../../src/corpus/doc-types";
import { parseTypeOverrides } from "../../src/corpus/type-overrides";

const docs = {
  guide: {
    id: "docs/guide.md",
    text:
      "# Guide\n\nThis guide walks you through the first steps of building a server, slowly and with care.\n\n" +
      "## API\n\n```js\napp.get('/', handler)\n```\n\n- `url`: the path\n- `method`: the verb\n\n" +
      "## Why is it fast?\n\nBecause of its schema-based serializer.\n",
  },
};

test("sections get their own types: prose, reference and faq in one file; the file takes the largest", () => {
  const typed = classifyDoc(docs.guide);
  assert.deepEqual(
    typed.sections.map((s) => [s.heading, s.type]),
    [
      ["Guide", "prose"],
      ["API", "reference"],
      ["Why is it fast?", "faq"],
    ],
  );
  assert.equal(typeAt(typed, docs.guide.text.indexOf("app.get")), "reference");
  const rows = typeBreakdown([typed]);
  assert.equal(
    rows.reduce((sum, r) => sum + r.chars, 0),
    docs.guide.text.length,
  );
});

test("overrides: a glob types the whole file, a heading pattern one section; rules name file and line when bad", () => {
  const rules = parseTypeOverrides("# mine\ndocs/** prose\nheading: /^API$/ faq\n", "types.txt");
  assert.equal(rules.length, 2);
  // First matching rule wins: the glob comes first, so every section is prose.
  assert.deepEqual(
    classifyDoc(docs.guide, rules).sections.map((s) => s.type),
    ["prose", "prose", "prose"],
  );
  const headingFirst = parseTypeOverrides("heading: API faq\n", "t");
  assert.equal(classifyDoc(docs.guide, headingFirst).sections[1].type, "faq");
  assert.equal(classifyDoc(docs.guide, headingFirst).sections[1].reason, "override t:1");
  assert.throws(() => parseTypeOverrides("docs/** poetry\n", "types.txt"), /types\.txt:1: unknown type "poetry"/);
  assert.throws(() => parseTypeOverrides("\n\nfaq\n", "types.txt"), /types\.txt:3: a rule is "PATTERN TYPE"/);
  assert.throws(() => parseTypeOverrides("heading: /(/ faq\n", "t"), /t:1: invalid heading pattern/);
});

test("source files, CSVs and transcripts are typed by file", () => {
  assert.equal(classifyDoc({ id: "lib/a.js", text: "module.exports = 1\n" }).type, "code");
  assert.equal(classifyDoc({ id: "data.csv", text: "a,b\n1,2\n" }).type, "table");
  const talk = "Ann: Hi.\n\nBen: Hello.\n\nAnn: How are you?\n\nBen: Fine.\n";
  assert.equal(classifyDoc({ id: "talk.md", text: talk }).type, "transcript");
  // "Note:" lines in docs are not a transcript: one speaker only.
  const notes = "Note: one.\n\nNote: two.\n\nNote: three.\n";
  assert.notEqual(classifyDoc({ id: "n.md", text: notes }).type, "transcript");
});

test("letters are counted in place exactly as matching the slice with /\\p{L}/gu counts them", () => {
  // ASCII, accents, a combining mark, CJK, letters outside the BMP (surrogate pairs), an emoji, digits, punctuation
  const text = "Héllo, wörld! 漢字 𝒜𝒝 😀 _@[`{ 123 Ωµ ǅ \u0300x ";
  const byRegex = (start: number, end: number) => text.slice(start, end).match(/\p{L}/gu)?.length ?? 0;
  for (let start = 0; start <= text.length; start++)
    for (let end = start; end <= text.length; end++)
      assert.equal(countLetters(text, start, end), byRegex(start, end), `[${start}, ${end})`);
});
