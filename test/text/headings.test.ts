import { test } from "node:test";
import assert from "node:assert/strict";
import { cleanHeadingText, findHeadings, removeRanges, scanMarkdownLines } from "../../src/text/headings";

const doc = [
  "---",
  "title: ## not a heading",
  "---",
  "# Title",
  "",
  "## Why sample traces? {#why}",
  "",
  "```yaml",
  "## not a heading either",
  "```",
  "",
  "~~~~",
  "## nor this",
  "~~~~",
  "<!--",
  "## commented out",
  "-->",
  "    ## indented code, not a heading",
  "### Details `code` and [a link](https://x.y)",
  '{{< figure src="a.png" >}}',
  "Some prose.",
].join("\n");

test("headings inside front matter, code fences, comments and indented code are not headings", () => {
  const headings = findHeadings(doc);
  assert.deepEqual(
    headings.map((h) => [h.level, h.text]),
    [
      [1, "Title"],
      [2, "Why sample traces?"],
      [3, "Details code and a link"],
    ],
  );
  assert.equal(doc.slice(headings[1].lineStart, headings[1].lineNext), "## Why sample traces? {#why}\n");
});

test("line kinds separate prose from shortcodes and other markup", () => {
  const kinds = scanMarkdownLines(doc).map((l) => l.kind);
  assert.equal(kinds[19], "markup"); // the Hugo shortcode line
  assert.equal(kinds[20], "text");
  assert.equal(kinds[8], "code");
});

test("heading text loses closing hashes, attributes, shortcodes and Liquid tags", () => {
  assert.equal(
    cleanHeadingText("How do I {{< param name >}} configure it? ##".replace(/ ##$/, "")),
    "How do I configure it?",
  );
  assert.equal(cleanHeadingText("Install {% include x.html %} *now* {#install}"), "Install now");
  assert.deepEqual(
    findHeadings("## Closed ##\n").map((h) => h.text),
    ["Closed"],
  );
});

test("removing ranges maps offsets after each cut back by the text removed before them", () => {
  const text = "aaa\n## H\nbbb\n## I\nccc";
  const cut = removeRanges(text, [
    { start: 4, end: 9 },
    { start: 13, end: 18 },
  ]);
  assert.equal(cut.text, "aaa\nbbb\nccc");
  assert.equal(cut.text.slice(cut.toNew(9), cut.toNew(12)), "bbb");
  assert.equal(cut.text.slice(cut.toNew(18), cut.toNew(21)), "ccc");
  assert.equal(cut.toNew(2), 2);
});
