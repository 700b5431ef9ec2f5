// scripts/unseen-corpora-build.ts turns @mastra/core's docs into a book and a FAQ site: checked on hand-written
// pages whose expected output is written out here, not taken from the code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bookChapter, buildBook, buildFaq, firstSentences } from "../../scripts/unseen-corpora-build";

const PREAMBLE = "> Docs are canonical.\n\n> Discover all pages.\n\n";

test("a book chapter opens with its title as a ## at character 0 and every heading moves down one level", () => {
  const page = `${PREAMBLE}# Agents\n\nIntro.\n\n## Create one\n\nText.\n\n\`\`\`md\n## not a heading\n\`\`\`\n\n###### Deep\n`;
  assert.equal(
    bookChapter(page),
    "## Agents\n\nIntro.\n\n### Create one\n\nText.\n\n```md\n## not a heading\n```\n\n###### Deep\n",
  );
});

test("the book keeps only the docs-* guides, in file-name order, numbered", () => {
  const book = buildBook([
    { name: "docs-b.md", text: "# B\n" },
    { name: "reference-x.md", text: "# X\n" },
    { name: "docs-a.md", text: "# A\n" },
  ]);
  assert.deepEqual(
    book.map((d) => [d.id, d.text]),
    [
      ["001-a.md", "## A\n"],
      ["002-b.md", "## B\n"],
    ],
  );
});

test("a FAQ question is answered by the first prose paragraph of its section, cut to three sentences", () => {
  const page =
    `${PREAMBLE}# \`Agent\` class\n\nThe Agent class is the foundation for agents. It has methods.\n\n` +
    "## Usage\n\n```ts\nconst a = 1\n```\n\n| a | b |\n\nPass instructions as a string to set an agent up. One. Two. Three.\n\n" +
    "## Parameters\n\n- a list item that is long enough to pass the length rule\n";
  const [faq] = buildFaq([{ name: "reference-agents-agent.md", text: page }]);
  assert.equal(faq.id, "faq-reference-agents.md");
  assert.equal(
    faq.text,
    "# reference agents FAQ\n\n## Agent class\n\n### What is Agent class?\n\n" +
      "The Agent class is the foundation for agents. It has methods.\n\n" +
      "### How does Usage work in Agent class?\n\nPass instructions as a string to set an agent up. One. Two.\n",
  );
});

test("firstSentences keeps at most n sentences", () => {
  assert.equal(firstSentences("A b c. D e f. G h i.", 2), "A b c. D e f.");
});
