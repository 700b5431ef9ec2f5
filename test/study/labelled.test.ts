import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadLabelledSet } from "../../src/corpus/labelled";
import {
  comparisonTableRows,
  evaluateConfigs,
  answerSpanRoundTrip,
  evaluateRetrievers,
  writeAnswerSpanJsonl,
} from "../../src/study/labelled";
import { lsaSpec } from "../../src/study/dense";
import { loadCorpus } from "../../src/corpus/load";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { evaluateSplitterConfig } from "../../src/retrieval/evaluate-config";
import { fastifyGuides } from "../helpers/corpora";

test("header queries written as answer-span JSONL read back to the same gold spans", () => {
  const docs = [
    { id: "a.md", text: "Intro text.\n\nThe first answer sits here. More words.\n\nSecond answer is this one." },
    { id: "b.md", text: "Another doc. Its only answer is unique." },
  ];
  const queries = [
    { id: "q1", text: "Where is the first answer?", gold: [{ doc: "a.md", start: 13, end: 40 }] },
    { id: "q2", text: "What is unique?", gold: [{ doc: "b.md", start: 13, end: 39 }] },
  ];
  const dir = mkdtempSync(join(tmpdir(), "seamlab-labelled-test-"));
  try {
    const file = writeAnswerSpanJsonl(docs, queries, dir);
    assert.equal(dirname(file), dir, "written in the folder given");
    assert.equal(readFileSync(file, "utf8").trim().split("\n").length, 2);
    const set = loadLabelledSet(file, docs);
    assert.deepEqual(
      set.queries.map((q) => q.gold),
      queries.map((q) => q.gold),
    );
    assert.deepEqual(
      set.queries.map((q) => q.text),
      queries.map((q) => q.text),
    );
    assert.equal(writeAnswerSpanJsonl(docs, queries, dir), file, "same content, same file name");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a labelled set built from queries is read from a temp folder of its own that is gone afterwards", () => {
  const docs = [{ id: "a.md", text: "Intro text.\n\nThe first answer sits here. More words." }];
  const queries = [{ id: "q1", text: "Where is the first answer?", gold: [{ doc: "a.md", start: 13, end: 40 }] }];
  const first = answerSpanRoundTrip(docs, queries);
  const second = answerSpanRoundTrip(docs, queries);
  assert.deepEqual(
    first.set.queries.map((q) => q.gold),
    queries.map((q) => q.gold),
  );
  assert.notEqual(first.folder, second.folder, "each run writes into its own folder, not a shared fixed path");
  assert.ok(first.folder.startsWith(tmpdir()));
  assert.equal(existsSync(first.folder), false, "the folder is removed");
  assert.equal(existsSync(second.folder), false);
});

test("the temp folder is removed when the labelled set fails to load", () => {
  const before = new Set(readdirSync(tmpdir()).filter((name) => name.startsWith("seamlab-labelled-")));
  // a gold span in a document the loader is not given: every row is skipped, and no query is left
  assert.throws(() =>
    answerSpanRoundTrip([], [{ id: "q", text: "Where?", gold: [{ doc: "x.md", start: 0, end: 3 }] }]),
  );
  const after = readdirSync(tmpdir()).filter((name) => name.startsWith("seamlab-labelled-") && !before.has(name));
  assert.deepEqual(after, []);
});

test("evaluateRetrievers (one split, one lsa fit, BM25 row from evaluateConfigs) equals each retriever built alone", async () => {
  const set = buildHeaderQueries(loadCorpus(fastifyGuides).docs);
  const config = { splitter: "recursive", size: 600, overlap: 100 };
  const settings = { embedder: lsaSpec(32) };
  const [bm25First] = await evaluateConfigs(set.docs, set.queries, [config], 5);
  const shared = await evaluateRetrievers(set.docs, set.queries, config, 5, 32);
  assert.equal(shared[0].outcomes, bm25First.outcomes, "the BM25 row is evaluateConfigs' own");
  const alone = [
    await evaluateSplitterConfig(set.docs, set.queries, config, { k: 5 }),
    await evaluateSplitterConfig(set.docs, set.queries, config, {
      k: 5,
      retriever: "dense",
      retrieverSettings: settings,
    }),
    await evaluateSplitterConfig(set.docs, set.queries, config, {
      k: 5,
      retriever: "hybrid",
      retrieverSettings: settings,
    }),
  ];
  const plain = (e: { summary: unknown; outcomes: unknown; indexRatio: number }) => ({
    summary: e.summary,
    outcomes: e.outcomes,
    indexRatio: e.indexRatio,
  });
  assert.deepEqual(shared.map(plain), alone.map(plain));
  assert.deepEqual(
    shared.map((e) => e.label),
    ["BM25", "dense (lsa)", "hybrid (RRF)"],
  );
  assert.notDeepEqual(shared[0].summary, shared[1].summary, "BM25 and dense rank differently");
});

test("the paired comparison table writes a tiny p-value as '< 0.001' and the CI as one signed interval", () => {
  const evaluation = (label: string) => ({ label }) as unknown as Parameters<typeof comparisonTableRows>[0];
  const comparison = {
    queries: 1170,
    wins: 52,
    losses: 95,
    ties: 1023,
    hitRateA: 0.42906,
    hitRateB: 0.46581,
    diff: -0.03675,
    diffCI: { low: -0.05812, high: -0.01795 },
    mcnemarP: 0.00021,
  } as Parameters<typeof comparisonTableRows>[2];
  const [row] = comparisonTableRows(evaluation("hybrid"), evaluation("BM25"), comparison);
  assert.equal(row["McNemar p"], "< 0.001");
  assert.equal(row["paired 95% CI"], "[-5.8, -1.8]");
  assert.equal(row["A − B (points)"], -3.7);
  assert.equal(row["hit rate A (%)"], 42.9);
});
