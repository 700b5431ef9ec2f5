import { test } from "node:test";
import assert from "node:assert/strict";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";

const text = [
  "# Guide", // level 1: never a query
  "",
  "## What is a span?",
  "",
  "A span is one unit of work. It has a start and an end.",
  "",
  "## Setup",
  "",
  "```sh",
  "## not a heading",
  "npm install",
  "```",
  "{{< alert >}}",
  "Install the SDK first. Then configure it.",
  "",
  "## Empty section",
  "### Child",
  "Child prose here.",
  "",
  "## Overview",
  "First overview.",
  "",
  "## Overview",
  "Second overview.",
].join("\n");
const docs = [{ id: "guide.md", text }];

test("header queries use ## headings, skip headings without prose and duplicates, and point gold at the stripped text", () => {
  const set = buildHeaderQueries(docs);
  assert.deepEqual(
    set.queries.map((q) => q.text),
    ["What is a span?", "Setup"],
  );
  const stripped = set.docs[0].text;
  for (const heading of ["# Guide", "## What is a span?", "## Setup", "### Child", "## Overview"]) {
    assert.ok(!stripped.includes(heading + "\n"), `heading line "${heading}" is removed`);
  }
  assert.ok(stripped.includes("## not a heading"), "code inside fences stays");
  const gold = set.queries.map((q) => stripped.slice(q.gold[0].start, q.gold[0].end));
  assert.deepEqual(gold, ["A span is one unit of work.", "Install the SDK first."]);
  assert.equal(set.headings, 5);
  assert.deepEqual(set.skipped, { notQuestion: 0, emptyText: 0, noProse: 1, duplicate: 2 });
});

test("header queries can keep only question headings, include ### and take more sentences", () => {
  assert.deepEqual(
    buildHeaderQueries(docs, { questionsOnly: true }).queries.map((q) => q.text),
    ["What is a span?"],
  );
  const withH3 = buildHeaderQueries(docs, { includeH3: true, sentences: 2 });
  assert.deepEqual(
    withH3.queries.map((q) => q.text),
    ["What is a span?", "Setup", "Child"],
  );
  const first = withH3.queries[0].gold[0];
  assert.equal(
    withH3.docs[0].text.slice(first.start, first.end),
    "A span is one unit of work. It has a start and an end.",
  );
});

test("a gold sentence runs over wrapped lines, and a list item is a paragraph of its own", () => {
  const wrapped =
    "## Why\n\nBecause the line is\nwrapped here. Second sentence.\n\n## List\n\n> [!NOTE]\n- first item\n  continues\n- second item\n";
  const set = buildHeaderQueries([{ id: "w.md", text: wrapped }]);
  const gold = set.queries.map((q) => set.docs[0].text.slice(q.gold[0].start, q.gold[0].end));
  assert.deepEqual(gold, ["Because the line is\nwrapped here.", "- first item\n  continues"]);
});
