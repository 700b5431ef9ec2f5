import { test } from "node:test";
import assert from "node:assert/strict";
import { buildIctQueries, contentWords } from "../../src/retrieval/ict-queries";
import { SeamlabError } from "../../src/core/errors";

/** 40 paragraphs of three distinct sentences each. */
const text = Array.from(
  { length: 40 },
  (_, i) =>
    `Paragraph ${i} opens with the harbour crew loading crates of copper wire ${i}. ` +
    `The captain of the vessel shouted loudly at the sailors on deck number ${i} today. ` +
    `Then the cargo was stowed below before the storm reached the coast near town ${i}.`,
).join("\n\n");
const docs = [{ id: "a.md", text }];

test("content words drop function words, punctuation and case, keeping the order", () => {
  assert.equal(
    contentWords("The captain of the vessel shouted, loudly, at the sailors!"),
    "captain vessel shouted loudly sailors",
  );
  // a sentence of function words only keeps them rather than sending nothing
  assert.equal(contentWords("It is what it is."), "it is what it is");
  const set = buildIctQueries(docs, { n: 30, query: "content-words" });
  const plain = buildIctQueries(docs, { n: 30 });
  assert.deepEqual(
    set.queries.map((q) => q.text),
    plain.queries.map((q) => contentWords(q.text)),
  );
  assert.deepEqual(
    set.queries.map((q) => q.gold),
    plain.queries.map((q) => q.gold),
    "the same gold spans",
  );
});

test("a place hit with the sentence kept asks a chunk to hold the sentence itself", () => {
  const set = buildIctQueries(docs, { n: 30, keepSentence: true, hit: "place" });
  for (const q of set.queries) {
    const [gold] = q.gold;
    assert.equal(set.docs[0].text.slice(gold.start, gold.end), q.text);
  }
});

test("a place hit with the sentence removed is the two characters where its neighbours now meet", () => {
  const set = buildIctQueries(docs, { n: 30, hit: "place" });
  const context = buildIctQueries(docs, { n: 30 });
  assert.equal(set.docs[0].text, context.docs[0].text, "the same text is split");
  set.queries.forEach((q, i) => {
    const [gold] = q.gold;
    // two characters; one where the removed sentence began or ended the whole text
    const atEdge = gold.start === 0 || gold.end === set.docs[0].text.length;
    assert.equal(gold.end - gold.start, atEdge ? 1 : 2);
    const [wide] = context.queries[i].gold;
    // the junction (where the neighbours meet) lies within the context span the default variant asks for
    const junction = gold.start === 0 ? 0 : gold.start + 1;
    assert.ok(junction >= wide.start && junction <= wide.end, JSON.stringify({ gold, wide }));
    assert.ok(!set.docs[0].text.includes(q.text), "the sentence is gone from the text");
  });
});

test("an unknown query form or hit is refused by name", () => {
  assert.throws(
    () => buildIctQueries(docs, { n: 30, query: "words" as never }),
    (e: unknown) => e instanceof SeamlabError && /ICT query form must be "sentence" or "content-words"/.test(e.message),
  );
  assert.throws(
    () => buildIctQueries(docs, { n: 30, hit: "span" as never }),
    (e: unknown) => e instanceof SeamlabError && /ICT hit must be "context" or "place"/.test(e.message),
  );
});
