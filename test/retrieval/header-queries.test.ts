import { test } from "node:test";
import assert from "node:assert/strict";
import {
  buildHeaderQueries,
  DEFAULT_HEADING_LEVELS,
  headingMarks,
  parseHeadingLevels,
} from "../../src/retrieval/header-queries";
import { SeamlabError } from "../../src/core/errors";
import { buildQuerySet, queryDropsText } from "../../src/retrieval/query-source";

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

test("header queries at level 2 use ## headings, skip headings without prose and duplicates, and point gold at the stripped text", () => {
  const set = buildHeaderQueries(docs, { headingLevels: [2] });
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
  const withH3 = buildHeaderQueries(docs, { headingLevels: [2, 3], sentences: 2 });
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

test("header queries come from ## and ### headings by default, and the levels used are named", () => {
  assert.deepEqual(DEFAULT_HEADING_LEVELS, [2, 3]);
  const set = buildHeaderQueries(docs);
  assert.deepEqual(
    set.queries.map((q) => q.text),
    ["What is a span?", "Setup", "Child"],
  );
  assert.deepEqual(set.levels, [2, 3]);
  assert.equal(set.headings, 6, "five ## headings and one ###");
  assert.equal(headingMarks(set.levels), "## and ###");
  assert.equal(headingMarks([4, 2, 3]), "##, ### and ####");
  assert.equal(headingMarks([2]), "##");
});

test("a ### heading alone gives queries at level 3 only, and its ## parents none", () => {
  const set = buildHeaderQueries(docs, { headingLevels: [3] });
  assert.deepEqual(
    set.queries.map((q) => q.text),
    ["Child"],
  );
  assert.equal(set.docs[0].text.slice(set.queries[0].gold[0].start, set.queries[0].gold[0].end), "Child prose here.");
});

test("heading levels parse from a list, sorted without repeats, and level 1 or 7 is refused naming the flag", () => {
  assert.deepEqual(parseHeadingLevels("3, 2,3"), [2, 3]);
  assert.throws(
    () => parseHeadingLevels("1,2"),
    (e: unknown) => e instanceof SeamlabError && /--heading-levels 1,2: "1"/.test(e.message),
  );
  assert.throws(
    () => parseHeadingLevels("2,7", "headingLevels"),
    /headingLevels 2,7: "7" is not a heading level from 2 to 6/,
  );
  assert.throws(() => parseHeadingLevels("two"), /e\.g\. --heading-levels 2,3/);
  assert.throws(() => parseHeadingLevels("2,"), /"" is not a heading level/);
});

test("a header query set's label names its heading levels and its description ends with what was dropped", () => {
  const set = buildQuerySet("headers", docs);
  assert.equal(set.label, "3 header queries (## and ###)");
  const drops = "3 of 6 headings dropped: 1 with no sentence under the heading, 2 whose heading text repeats";
  assert.equal(queryDropsText(set.provenance), drops);
  assert.ok(set.description.endsWith(`; ${drops}`), set.description);
  const h2 = buildQuerySet("headers", docs, { headers: { headingLevels: [2] } });
  assert.equal(h2.label, "2 header queries (##)");
  assert.equal(
    queryDropsText(h2.provenance),
    "3 of 5 headings dropped: 1 with no sentence under the heading, 2 whose heading text repeats",
  );
  const clean = buildQuerySet("headers", [{ id: "c.md", text: "## One\n\nFirst.\n" }]);
  assert.equal(queryDropsText(clean.provenance), "none of 1 heading dropped");
});
