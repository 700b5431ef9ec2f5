import { test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk, Doc } from "../../src/core/types";
import { createBm25Retriever } from "../../src/retrieval/bm25";
import {
  buildBm25Index,
  buildBm25IndexOfChunks,
  queryVocabulary,
  type Bm25Options,
} from "../../src/retrieval/bm25-index";
import { bm25IndexReuses } from "../../src/retrieval/bm25-memo";
import {
  buildDocTermTable,
  chunkTermReader,
  readChunkTerms,
  sharedDocTermTable,
  vocabularyTermIds,
} from "../../src/retrieval/doc-terms";
import { englishStopWords, tokenize } from "../../src/retrieval/tokenize";
import { bm25ArrayFields } from "../helpers/bm25-fields";

// Documents that stress the span edges: words cut anywhere, digits, accents, a letter outside the BMP (two UTF-16
// units, so an edge can cut it in half), an emoji (not a letter), and three that must not be read from the table:
// İ lowercases to two units, Σ lowercases by context (final sigma), and K (Kelvin sign) is a letter either way but
// the others are plain. Stop words and stemmable words so that both options matter.
let state = 5;
const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
const words = [
  "the", "collector", "collectors", "running", "traces", "über", "größe", "naïve", "東京", "v1", "2024",
  "\u{1d400}bc", "a\u{1d400}", "is", "of", "exporters", "span", "spans", "don't", "otel_exporter", "😀", "x",
]; // prettier-ignore
const sentence = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(" ");
const docs: Doc[] = [
  ...Array.from({ length: 12 }, (_, i) => ({
    id: `d${i}`,
    text: `# ${sentence(3)}\n\n${sentence(60)}.\n${sentence(40)}`,
  })),
  { id: "dotted", text: `İstanbul collectors ${sentence(30)}` },
  { id: "sigma", text: `ΟΔΟΣ.Α collector ${sentence(30)} ΣΑΣ` },
  { id: "kelvin", text: `\u212a collector ${sentence(30)}` },
  { id: "empty", text: "" },
  { id: "symbols", text: " ... — !!" },
];
const queries = ["οδοσ collector traces", "running spans über", "東京 v1 2024", "the exporters", "\u{1d400}bc naïve"];

/** Seeded spans of every document: edges anywhere (inside words, inside surrogate pairs), some empty. */
function randomChunks(count: number): Chunk[] {
  const out: Chunk[] = [];
  for (let i = 0; i < count; i++) {
    const doc = docs[Math.floor(random() * docs.length)];
    const a = Math.floor(random() * (doc.text.length + 1));
    const b = Math.min(doc.text.length, a + Math.floor(random() * 90));
    out.push({ doc: doc.id, start: a, end: b, text: doc.text.slice(a, b) });
  }
  return out;
}

const settings: Bm25Options[] = [
  {},
  { stem: true },
  { stopWords: englishStopWords },
  { stopWords: englishStopWords, stem: true },
];

test("a chunk's terms read from its document are exactly those of tokenizing its text, at any span edges", () => {
  for (const options of settings) {
    const vocabulary = queryVocabulary(queries, options);
    const termIds = vocabularyTermIds(vocabulary);
    const table = buildDocTermTable(docs, termIds, options);
    assert.equal(table.covered, docs.length - 2, "all but the dotted-İ and sigma documents");
    const reader = chunkTermReader(table);
    for (const chunk of randomChunks(3000)) {
      const expected = tokenize(chunk.text, options);
      const ok = readChunkTerms(reader, chunk);
      assert.equal(ok, chunk.doc !== "dotted" && chunk.doc !== "sigma", chunk.doc);
      if (!ok) continue;
      const ids = expected.map((term) => termIds.get(term)).filter((id) => id !== undefined);
      const read = Array.from(reader.out.ids.subarray(0, reader.out.count));
      const label = `${chunk.doc} [${chunk.start}, ${chunk.end}) ${JSON.stringify(chunk.text)}`;
      assert.equal(reader.out.length, expected.length, label);
      assert.deepEqual(read.sort(), (ids as number[]).sort(), label);
    }
  }
});

test("a chunk whose text is not its span, or of an unknown document, is left to tokenizing", () => {
  const table = buildDocTermTable(docs, vocabularyTermIds(queryVocabulary(queries)));
  const reader = chunkTermReader(table);
  const text = docs[0].text;
  assert.equal(readChunkTerms(reader, { doc: "d0", start: 0, end: 10, text: text.slice(0, 10) }), true);
  assert.equal(readChunkTerms(reader, { doc: "d0", start: 0, end: 10, text: `## ${text.slice(3, 10)}` }), false);
  assert.equal(readChunkTerms(reader, { doc: "d0", start: 0, end: 10, text: text.slice(0, 9) }), false);
  assert.equal(readChunkTerms(reader, { doc: "nowhere", start: 0, end: 10, text: text.slice(0, 10) }), false);
  assert.equal(readChunkTerms(reader, { doc: "d0", start: -1, end: 9, text: text.slice(0, 10) }), false);
});

test("a BM25 index built from chunk spans equals the index built from the chunk texts", () => {
  const chunks = randomChunks(400);
  // A header-prefixed chunk (text is not its span) in the middle: tokenized from its text.
  chunks.splice(200, 0, { doc: "d1", start: 5, end: 40, text: `Title: ${docs[1].text.slice(5, 40)}` });
  for (const options of [...settings, { k1: 2, b: 0.3, idf: "robertson" as const }]) {
    const vocabulary = queryVocabulary(queries, options);
    const table = buildDocTermTable(docs, vocabularyTermIds(vocabulary), options);
    const texts = chunks.map((chunk) => chunk.text);
    const expected = buildBm25Index(texts, options, { vocabulary });
    const built = buildBm25IndexOfChunks(chunks, table, options, { vocabulary });
    for (const field of bm25ArrayFields)
      assert.deepEqual(Array.from(built[field]), Array.from(expected[field]), `${field} ${JSON.stringify(options)}`);
    assert.deepEqual([...built.termIds], [...expected.termIds]);
    assert.equal(built.averageLength, expected.averageLength);
    assert.deepEqual(Array.from(built.upperBound), Array.from(expected.upperBound));
  }
});

test("a table built for other queries or settings is refused; a retriever given the documents ranks the same", () => {
  const chunks = randomChunks(200);
  const vocabulary = queryVocabulary(queries);
  const table = sharedDocTermTable(docs, vocabulary);
  assert.equal(sharedDocTermTable(docs, new Set(vocabulary)), table, "one table per documents array and vocabulary");
  assert.throws(
    () => buildBm25IndexOfChunks(chunks, table, {}, { vocabulary: queryVocabulary(["other words"]) }),
    /another vocabulary/,
  );
  assert.throws(() => buildBm25IndexOfChunks(chunks, table, { stem: true }, { vocabulary }), /tokenizer settings/);
  const fromDocs = createBm25Retriever(chunks, { k1: 1.5 }, queries, docs);
  const fromTexts = buildBm25Index(
    chunks.map((c) => c.text),
    { k1: 1.5 },
  );
  for (const query of queries) {
    const full = createBm25Retriever(
      chunks.map((c) => c.text),
      { k1: 1.5 },
    );
    assert.deepEqual(fromDocs.search(query, 7), full.search(query, 7), query);
  }
  assert.equal(fromDocs.index.averageLength, fromTexts.averageLength);
});

test("the table keeps documents in order until its cap of runs, and tokenizing covers the rest", () => {
  const termIds = vocabularyTermIds(queryVocabulary(queries));
  const capped = buildDocTermTable(docs, termIds, {}, 150);
  assert.ok(capped.covered > 0 && capped.covered < 4, `covered ${capped.covered}`);
  const chunks = randomChunks(300);
  const vocabulary = queryVocabulary(queries);
  const built = buildBm25IndexOfChunks(chunks, capped, {}, { vocabulary });
  const expected = buildBm25Index(
    chunks.map((c) => c.text),
    {},
    { vocabulary },
  );
  assert.deepEqual(Array.from(built.postingFrequency), Array.from(expected.postingFrequency));
  assert.deepEqual(Array.from(built.textLength), Array.from(expected.textLength));
});

test("indexes over spans of one documents array are shared by their spans; other spans or texts build their own", () => {
  const chunks = randomChunks(100);
  const before = bm25IndexReuses();
  const first = createBm25Retriever(chunks, {}, queries, docs);
  assert.equal(createBm25Retriever([...chunks], {}, queries, docs).index, first.index, "same spans, same index");
  assert.equal(bm25IndexReuses(), before + 1);
  const moved = chunks.map((c, i) => (i === 50 ? { ...c, end: c.start, text: "" } : c));
  assert.notEqual(createBm25Retriever(moved, {}, queries, docs).index, first.index, "one span differs");
  // A chunk that is not its span: named by the texts, still shared when they repeat.
  const titled = chunks.map((c, i) => (i === 0 ? { ...c, text: `Title ${c.text}` } : c));
  const titledIndex = createBm25Retriever(titled, {}, queries, docs).index;
  assert.notEqual(titledIndex, first.index);
  assert.equal(createBm25Retriever(titled, {}, queries, docs).index, titledIndex);
  assert.deepEqual(
    Array.from(titledIndex.postingFrequency),
    Array.from(
      buildBm25Index(
        titled.map((c) => c.text),
        {},
        { vocabulary: queryVocabulary(queries) },
      ).postingFrequency,
    ),
  );
});
