import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCorpus } from "../../src/corpus/load";
import {
  computeDocSetupPart,
  mergeDocSetup,
  setupPairs,
  setupPieces,
  setupRanges,
  setupTermsFit,
  useSetupTerms,
} from "../../src/experiment/doc-setup";
import { queryVocabulary } from "../../src/retrieval/bm25-index";
import { buildDocTermTable, sharedDocTermTable, vocabularyTermIds } from "../../src/retrieval/doc-terms";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { chunkTokenCounter } from "../../src/experiment/token-count";
import { straddlingPairs } from "../../src/measure/pairs";
import { splitCorpus } from "../../src/splitters/registry";
import { getEncoding } from "../../src/text/tokens";
import { fastifyGuides } from "../helpers/corpora";

const docs = loadCorpus(fastifyGuides).docs;
// The independent reference for token counts: js-tiktoken itself, special tokens encoded as text.
const countTokens = (text: string) => getEncoding("cl100k_base").encode(text, [], []).length;

test("setup ranges cover every document once, in order, with about equal characters each", () => {
  for (const parts of [1, 2, 3, 7]) {
    const ranges = setupRanges(docs, parts);
    assert.equal(ranges.length, parts);
    assert.equal(ranges[0][0], 0);
    assert.equal(ranges[ranges.length - 1][1], docs.length);
    for (let i = 1; i < ranges.length; i++) assert.equal(ranges[i][0], ranges[i - 1][1]);
    for (const [from, to] of ranges) assert.ok(to > from, "no empty range");
  }
  const [a, b] = setupRanges(docs, 2).map(([from, to]) =>
    docs.slice(from, to).reduce((sum, doc) => sum + doc.text.length, 0),
  );
  const largest = Math.max(...docs.map((doc) => doc.text.length));
  assert.ok(Math.abs(a - b) <= largest, `halves of ${a} and ${b} characters`);
  assert.deepEqual(setupRanges(docs.slice(0, 2), 5), [
    [0, 1],
    [1, 2],
  ]);
});

test("a setup merged from parts computed apart gives straddlingPairs' pairs, in corpus order", () => {
  const parts = setupRanges(docs, 3).map(([from, to]) => computeDocSetupPart(docs, from, to));
  // Merged whatever order the threads finish in.
  const setup = mergeDocSetup([parts[2], parts[0], parts[1]], docs.length);
  assert.ok(setup.pairs.buffer instanceof SharedArrayBuffer, "shared with the worker threads without copying");
  assert.deepEqual(setupPairs(docs, setup), straddlingPairs(docs));
  assert.throws(() => mergeDocSetup([parts[0], parts[2]], docs.length), /leave documents/);
  assert.throws(() => mergeDocSetup(parts.slice(0, 2), docs.length), /end at document/);
});

test("chunk token counts read from a merged setup's pieces equal js-tiktoken on every chunk", () => {
  const parts = setupRanges(docs, 2).map(([from, to]) => computeDocSetupPart(docs, from, to));
  const setup = mergeDocSetup(parts, docs.length);
  const count = chunkTokenCounter(docs, "cl100k_base", (i) => setupPieces(setup, i));
  for (const config of [
    { splitter: "window", size: 300, overlap: 37 },
    { splitter: "langchain", size: 400, overlap: 100 },
    { splitter: "tail", size: 400, overlap: 80 },
  ]) {
    for (const chunk of splitCorpus(docs, config))
      assert.equal(count(chunk), countTokens(chunk.text), `${config.splitter} ${chunk.doc} ${chunk.start}`);
  }
  // A document's pieces end at its text's end, and its running total is its token count.
  docs.forEach((doc, i) => {
    const { ends, cumulative } = setupPieces(setup, i);
    assert.equal(ends[ends.length - 1], doc.text.length);
    assert.equal(cumulative[ends.length], countTokens(doc.text));
  });
});

test("BM25's document terms built in shares are the table a single build gives, and BM25 reads them", () => {
  const queries = buildHeaderQueries(docs).queries;
  const vocabulary = queryVocabulary(queries.map((query) => query.text));
  const whole = buildDocTermTable(docs, vocabularyTermIds(vocabulary));
  const parts = setupRanges(docs, 3).map(([from, to]) => computeDocSetupPart(docs, from, to, queries));
  const setup = mergeDocSetup(parts, docs.length);
  assert.ok(setup.terms && setup.terms.codes.buffer instanceof SharedArrayBuffer);
  const copy = docs.map((doc) => ({ ...doc })); // another documents array, as a worker thread decodes it
  useSetupTerms(copy, queries, setup);
  const shared = sharedDocTermTable(copy, vocabulary);
  const [first] = shared.docs.values();
  assert.ok(first.codes.buffer instanceof SharedArrayBuffer, "the shared rows, not a table built again");
  assert.equal(shared.covered, whole.covered);
  assert.ok(whole.covered > 0);
  for (const [id, row] of whole.docs) {
    const other = shared.docs.get(id);
    assert.ok(other, id);
    assert.deepEqual([...other.codes], [...row.codes], id);
    assert.deepEqual([...other.anchors], [...row.anchors], id);
  }
  assert.equal(shared.other, whole.other);
  assert.equal(shared.stop, whole.stop);
  // Without queries the setup holds no terms, and a merge of parts with and without them keeps none.
  assert.equal(mergeDocSetup([computeDocSetupPart(docs, 0, docs.length)], docs.length).terms, undefined);
  assert.ok(setupTermsFit(docs, true));
  assert.ok(!setupTermsFit(docs, false));
});
