import { test } from "node:test";
import assert from "node:assert/strict";
import {
  copiedShare,
  filterReplies,
  locateExcerpt,
  parseReply,
  samplePassages,
  type ReplyRecord,
} from "../../src/retrieval/llm-queries";
import { chromaCsv } from "../../src/corpus/write-labelled";
import { parseLabelledSet } from "../../src/corpus/labelled";
import type { Doc } from "../../src/core/types";

const docs: Doc[] = [
  {
    id: "a.md",
    text: "The lighthouse was painted red in 1902.\nIts lamp burns\n  paraffin oil.\n\nA keeper lived there alone.",
  },
  { id: "b.md", text: "The ferry leaves at noon. Tickets cost two pounds." },
];

test("an excerpt is located exactly, forgiving only whitespace", () => {
  assert.deepEqual(locateExcerpt(docs[0], "Its lamp burns paraffin oil."), { doc: "a.md", start: 40, end: 70 });
  assert.equal(docs[0].text.slice(40, 70), "Its lamp burns\n  paraffin oil.");
  assert.equal(locateExcerpt(docs[0], "its lamp burns paraffin oil."), undefined, "case is not forgiven");
  assert.equal(locateExcerpt(docs[0], "Its lamp burns kerosene."), undefined);
  assert.equal(locateExcerpt(docs[0], "   "), undefined);
});

test("the occurrence inside the passage wins over an earlier one", () => {
  const doc = { id: "r", text: "Same words here. Other text. Same words here." };
  assert.equal(locateExcerpt(doc, "Same words here.", { start: 20, end: 45 })!.start, 29);
  assert.equal(locateExcerpt(doc, "Same words here.")!.start, 0);
});

test("replies are read from plain JSON, a fenced block or JSON inside prose; anything else is malformed", () => {
  const good = { question: "What colour is it?", excerpts: ["red"] };
  assert.deepEqual(parseReply(JSON.stringify(good)), good);
  assert.deepEqual(parseReply("```json\n" + JSON.stringify(good) + "\n```"), good);
  assert.deepEqual(parseReply("Sure! " + JSON.stringify(good) + " Hope it helps."), good);
  assert.deepEqual(parseReply('{"question": "Q?", "excerpt": "red"}'), { question: "Q?", excerpts: ["red"] });
  assert.deepEqual(parseReply("I cannot do that."), { malformed: "not JSON" });
  assert.deepEqual(parseReply('{"question": "Q?",'), { malformed: "not JSON" });
  assert.deepEqual(parseReply('{"excerpts": ["red"]}'), { malformed: "no question" });
  assert.deepEqual(parseReply('{"question": "Q?", "excerpts": []}'), { malformed: "no excerpts" });
  assert.deepEqual(parseReply('{"question": "Q?", "excerpts": [3]}'), { malformed: "no excerpts" });
  assert.deepEqual(parseReply(undefined), { malformed: "no message content" });
});

test("copied share counts the question's word bigrams found in the excerpts", () => {
  assert.equal(copiedShare("The lighthouse was painted red in 1902?", ["The lighthouse was painted red in 1902."]), 1);
  assert.equal(copiedShare("When did the tower get its colour?", ["The lighthouse was painted red in 1902."]), 0);
  // was-the, the-lighthouse, lighthouse-painted, painted-blue: only "the lighthouse" is in the excerpt
  assert.equal(copiedShare("Was the lighthouse painted blue?", ["The lighthouse was painted red."]), 0.25);
});

test("every drop reason is counted and kept questions carry exact gold spans in their document", () => {
  const p = (doc: string, start: number, end: number) => ({ doc, start, end });
  const replies: ReplyRecord[] = [
    {
      passage: p("a.md", 0, 70),
      content: JSON.stringify({ question: "What fuel does the lamp use?", excerpts: ["Its lamp burns paraffin oil."] }),
    },
    { passage: p("a.md", 0, 70), content: "no JSON here" },
    { passage: p("a.md", 0, 70), failure: "gave up after 5 attempts" },
    { passage: p("a.md", 0, 70), malformed: "the server answered 200 with a body that is not JSON" },
    { passage: p("a.md", 0, 70), content: JSON.stringify({ question: "When?", excerpts: ["painted green"] }) },
    {
      passage: p("a.md", 0, 70),
      content: JSON.stringify({ question: "When?", excerpts: ["The ferry leaves at noon."] }),
    },
    {
      passage: p("a.md", 0, 70),
      content: JSON.stringify({
        question: "The lighthouse was painted red in 1902?",
        excerpts: ["The lighthouse was painted red in 1902."],
      }),
    },
    {
      passage: p("a.md", 0, 70),
      content: JSON.stringify({ question: "What fuel does the lamp use?", excerpts: ["paraffin oil"] }),
    },
    {
      passage: p("b.md", 0, 50),
      content: JSON.stringify({
        question: "How much is a ticket?",
        excerpts: ["Tickets cost two pounds.", "The ferry"],
      }),
    },
  ];
  const result = filterReplies(replies, docs);
  assert.deepEqual(result.dropped, {
    requestFailed: 1,
    malformedReply: 2,
    excerptNotFound: 1,
    excerptFromOtherDocument: 1,
    copiesExcerpt: 1,
    nearDuplicate: 1,
  });
  assert.deepEqual(
    result.queries.map((q) => q.text),
    ["What fuel does the lamp use?", "How much is a ticket?"],
  );
  const ticket = result.queries[1];
  assert.equal(ticket.doc, "b.md");
  assert.deepEqual(
    ticket.gold.map((g) => docs[1].text.slice(g.start, g.end)),
    ["The ferry", "Tickets cost two pounds."],
  );
});

test("kept questions written in Chroma's shape read back with the same gold spans", () => {
  const result = filterReplies(
    [
      {
        passage: { doc: "a.md", start: 0, end: 70 },
        content: JSON.stringify({ question: 'What fuel, "exactly"?', excerpts: ["Its lamp burns paraffin oil."] }),
      },
    ],
    docs,
  );
  const csv = chromaCsv(result.queries, docs);
  const back = parseLabelledSet(csv, "generated.csv", docs);
  assert.equal(back.report.shape, "chroma");
  assert.equal(back.queries[0].text, 'What fuel, "exactly"?');
  assert.deepEqual(back.queries[0].gold, result.queries[0].gold);
  assert.equal(back.report.offsetsCorrected, 0);
});

test("passages are sampled with a seed, stratified over documents, in corpus order", () => {
  const big: Doc[] = ["x", "y"].map((id, d) => ({
    id,
    text: Array.from({ length: 10 * (d + 1) }, (_, i) => `Paragraph ${i} of ${id} has some words in it.`).join("\n\n"),
  }));
  const a = samplePassages(big, 6, 60, 1);
  assert.deepEqual(a, samplePassages(big, 6, 60, 1));
  assert.notDeepEqual(a, samplePassages(big, 6, 60, 2));
  assert.equal(a.filter((p) => p.doc === "x").length, 2);
  assert.equal(a.filter((p) => p.doc === "y").length, 4);
  for (let i = 1; i < a.length; i++) assert.ok(a[i - 1].doc < a[i].doc || a[i - 1].start < a[i].start);
  for (const p of a) assert.ok(p.end - p.start <= 60);
});
