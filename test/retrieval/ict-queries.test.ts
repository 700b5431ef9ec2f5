import { test } from "node:test";
import assert from "node:assert/strict";
import { allocateProportionally, buildIctQueries } from "../../src/retrieval/ict-queries";
import { evaluateQueries } from "../../src/retrieval/evaluate";
import type { Chunk, Doc } from "../../src/core/types";
import type { Retriever } from "../../src/retrieval/types";

// Sentences of eight or more words, each unique, so every one is a candidate unless a rule skips it.
const sentence = (doc: string, i: number) =>
  `The ${doc} keeper counted barrels number ${i} along the quiet harbour wall today.`;
const paragraph = (doc: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => sentence(doc, from + i)).join(" ");

function corpus(): Doc[] {
  return [
    { id: "a.md", text: [paragraph("alpha", 0, 6), paragraph("alpha", 6, 6), paragraph("alpha", 12, 6)].join("\n\n") },
    { id: "b.md", text: paragraph("beta", 0, 6) },
  ];
}

test("ICT removes each query sentence and its gold span is exactly the neighbours joined where it was", () => {
  const docs = corpus();
  const set = buildIctQueries(docs, { n: 6, seed: 3 });
  assert.equal(set.queries.length, 6);
  for (const q of set.queries) {
    const original = docs.find((d) => d.id === q.doc)!.text;
    const indexed = set.docs.find((d) => d.id === q.doc)!.text;
    assert.ok(!indexed.includes(q.text), `query sentence still indexed: ${q.text}`);
    const gold = indexed.slice(q.gold[0].start, q.gold[0].end);
    assert.ok(gold.length > 0 && !gold.includes(q.text));
    assert.ok(!gold.includes("\n\n"), "context never crosses a paragraph break");
    // the context was contiguous in the original except for the removed sentence
    assert.ok(
      original
        .replace(q.text + " ", "")
        .replace(" " + q.text, "")
        .includes(gold),
      gold,
    );
    assert.equal(q.gold[0].doc, q.doc);
  }
  // every query sentence removed once: the indexed corpus shrank by the sentences (and one joining space each)
  const removed = set.queries.reduce((s, q) => s + q.text.length + 1, 0);
  const before = docs.reduce((s, d) => s + d.text.length, 0);
  const after = set.docs.reduce((s, d) => s + d.text.length, 0);
  assert.equal(before - after, removed);
});

test("ICT gold of a middle sentence is previous + space + next, located exactly", () => {
  const text = [sentence("x", 0), sentence("x", 1), sentence("x", 2)].join(" ");
  const set = buildIctQueries([{ id: "x", text }], { n: 1, seed: 1, contextSentences: 1 });
  const q = set.queries[0];
  const i = [0, 1, 2].find((j) => q.text === sentence("x", j))!;
  const gold = set.docs[0].text.slice(q.gold[0].start, q.gold[0].end);
  const expected = [i - 1, i + 1]
    .filter((j) => j >= 0 && j <= 2)
    .map((j) => sentence("x", j))
    .join(" ");
  assert.equal(gold, expected);
});

test("ICT with keepSentence leaves the text unchanged and the gold span includes the sentence", () => {
  const docs = corpus();
  const set = buildIctQueries(docs, { n: 5, keepSentence: true });
  assert.deepEqual(
    set.docs.map((d) => d.text),
    docs.map((d) => d.text),
  );
  for (const q of set.queries) {
    const text = docs.find((d) => d.id === q.doc)!.text;
    assert.ok(text.slice(q.gold[0].start, q.gold[0].end).includes(q.text));
  }
});

test("ICT sampling is seeded: same seed same queries, another seed other queries", () => {
  const ids = (seed: number) => buildIctQueries(corpus(), { n: 5, seed }).queries.map((q) => q.id);
  assert.deepEqual(ids(7), ids(7));
  assert.notDeepEqual(ids(7), ids(8));
});

test("ICT shares the query count among documents in proportion to what each can give", () => {
  assert.deepEqual(allocateProportionally(20, [30, 10]), [15, 5]);
  assert.deepEqual(allocateProportionally(3, [1, 1, 1, 1]), [1, 1, 1, 0]);
  assert.deepEqual(allocateProportionally(5, [1, 10]), [0, 5]);
  assert.deepEqual(allocateProportionally(11, [1, 10]), [1, 10]);
  const set = buildIctQueries(corpus(), { n: 8, seed: 2 });
  const perDoc = new Map<string, number>();
  for (const q of set.queries) perDoc.set(q.doc!, (perDoc.get(q.doc!) ?? 0) + 1);
  // a.md has three times b.md's paragraphs: it gives about three quarters of the queries
  assert.ok(perDoc.get("a.md")! >= 5 && perDoc.get("b.md")! >= 1, JSON.stringify([...perDoc]));
});

test("no chosen sentence lies in another query's context", () => {
  const set = buildIctQueries(corpus(), { n: 8, seed: 5, keepSentence: true });
  for (const q of set.queries) {
    for (const other of set.queries) {
      if (other === q || other.doc !== q.doc) continue;
      const text = corpus().find((d) => d.id === q.doc)!.text;
      const at = text.indexOf(other.text);
      assert.ok(at + other.text.length <= q.gold[0].start || at >= q.gold[0].end, `${other.id} inside ${q.id}`);
    }
  }
});

test("ICT skips short sentences, code, table rows, fenced code, repeated boilerplate and sentences without neighbours", () => {
  const prose = paragraph("gamma", 0, 3);
  const text = [
    "Too short here. " + prose,
    "Call `client.connect()` before you send any request to the quiet harbour server now. " + sentence("delta", 1),
    "| a | table row with many words that are not a sentence at all really |",
    "```",
    sentence("code", 0) + " " + sentence("code", 1),
    "```",
    "This page is generated automatically from the quiet harbour docs source. " + sentence("eps", 1),
    sentence("lonely", 0),
  ].join("\n\n");
  const other = "This page is generated automatically from the quiet harbour docs source. " + sentence("zeta", 1);
  const set = buildIctQueries(
    [
      { id: "g", text },
      { id: "h", text: other },
    ],
    { n: 1 },
  );
  assert.equal(set.skipped.tooShort, 1);
  assert.equal(set.skipped.notProse, 1);
  assert.equal(set.skipped.boilerplate, 2);
  assert.equal(set.skipped.noNeighbour, 1);
  // 3 gamma + delta 1 + eps 1 + zeta 1; the table row and fenced code are not prose paragraphs at all
  assert.equal(set.candidates, 6);
  assert.ok(!set.queries.some((q) => q.text.includes("code keeper")));
});

test("ICT on a corpus too small for the query count names the count and the flag", () => {
  assert.throws(
    () => buildIctQueries([{ id: "tiny", text: paragraph("t", 0, 3) }], { n: 50, corpusName: "tiny" }),
    /corpus "tiny" is too small for 50 inverse-cloze queries: 2 sentences can serve.*--ict-n/,
  );
  assert.throws(() => buildIctQueries([{ id: "e", text: "Short." }], { n: 1 }), /Use a corpus with prose paragraphs/);
});

test("a hit needs the whole context in one chunk: a seam inside the context is a miss", async () => {
  const text = [sentence("s", 0), sentence("s", 1), sentence("s", 2)].join(" ");
  const set = buildIctQueries([{ id: "s", text }], { n: 1, seed: 4 });
  const [q] = set.queries;
  const indexed = set.docs[0].text;
  const { start, end } = q.gold[0];
  const cut = start + Math.floor((end - start) / 2);
  const chunk = (s: number, e: number): Chunk => ({ doc: "s", start: s, end: e, text: indexed.slice(s, e) });
  const first: Retriever = { name: "fixed", search: () => [{ index: 0, score: 1 }] };
  const [seamInside] = await evaluateQueries([chunk(0, cut), chunk(cut, indexed.length)], [q], first, { k: 1 });
  assert.equal(seamInside.hit, false);
  const [whole] = await evaluateQueries([chunk(0, indexed.length)], [q], first, { k: 1 });
  assert.equal(whole.hit, true);
});

test("without a count, ICT takes every usable sentence up to 500, and stops clearly under 30", () => {
  const many: Doc[] = Array.from({ length: 12 }, (_, d) => ({ id: `m${d}`, text: paragraph(`m${d}`, 0, 9) }));
  const set = buildIctQueries(many);
  // nine sentences a paragraph, none within one of another: at most five per paragraph, at least three
  assert.ok(set.queries.length >= 36 && set.queries.length <= 60, String(set.queries.length));
  assert.equal(set.settings.n, set.queries.length);
  assert.throws(
    () => buildIctQueries([{ id: "few", text: paragraph("f", 0, 9) }], { corpusName: "few" }),
    /corpus "few" is too small for the 30 needed for inverse-cloze queries/,
  );
});
