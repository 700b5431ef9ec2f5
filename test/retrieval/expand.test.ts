import { test } from "node:test";
import assert from "node:assert/strict";
import {
  evaluateWithPieces,
  neighbourWindows,
  parentSpans,
  parseExpandList,
  parseParentsList,
  piecesWithinBudget,
  sectionSpans,
  strategyName,
  topOverBudgetText,
} from "../../src/retrieval/expand";
import { summarizeOutcomes } from "../../src/retrieval/evaluate";
import { SeamlabError } from "../../src/core/errors";
import type { Chunk, Doc, Query } from "../../src/core/types";
import type { Retriever } from "../../src/retrieval/types";

/** Chunks of 100 characters: doc a has four, doc b two; given out of order to check windows follow the text. */
const chunk = (doc: string, start: number): Chunk => ({ doc, start, end: start + 100, text: "x".repeat(100) });
const chunks: Chunk[] = [
  chunk("a", 200),
  chunk("a", 0),
  chunk("b", 0),
  chunk("a", 100),
  chunk("a", 300),
  chunk("b", 100),
];

test("a neighbour window is LlamaIndex's slice(max(0, i - n), min(i + n + 1, len)) of the document's chunks", () => {
  const one = neighbourWindows(chunks, 1);
  // doc a in text order: 0 (index 1), 100 (3), 200 (0), 300 (4). Index 0 is 200..300: its window runs from its
  // left neighbour's start (100) to its right neighbour's end (400).
  assert.deepEqual(one[0], { doc: "a", start: 100, end: 400 });
  assert.deepEqual(one[1], { doc: "a", start: 0, end: 200 }); // first chunk: clipped at the document's start
  assert.deepEqual(one[4], { doc: "a", start: 200, end: 400 }); // last: clipped at its end
  assert.deepEqual(one[2], { doc: "b", start: 0, end: 200 }); // never crosses into another document
  assert.deepEqual(neighbourWindows(chunks, 2)[0], { doc: "a", start: 0, end: 400 });
  assert.deepEqual(neighbourWindows(chunks, 0)[3], { doc: "a", start: 100, end: 200 });
});

test("sections start at each # or ## heading outside code; ### stays inside its section", () => {
  const text = "intro\n# Title\ntext\n## One\nbody\n### Deeper\nmore\n```\n## not a heading\n```\n## Two\nend\n";
  const doc: Doc = { id: "d", text };
  const starts = sectionSpans(doc).map((s) => text.slice(s.start, s.start + 8));
  assert.deepEqual(starts, ["intro\n# ", "# Title\n", "## One\nb", "## Two\ne"]);
  const spans = sectionSpans(doc);
  assert.equal(spans[spans.length - 1].end, text.length);
  assert.equal(spans[2].end, text.indexOf("## Two"));
});

test("a chunk's parent is the union of the parents it overlaps, or itself in a gap between them", () => {
  const parents = [
    { doc: "a", start: 0, end: 250 },
    { doc: "a", start: 250, end: 400 },
    { doc: "b", start: 150, end: 200 },
  ];
  const spans = parentSpans(chunks, parents);
  assert.deepEqual(spans[1], { doc: "a", start: 0, end: 250 }); // 0..100 inside the first
  assert.deepEqual(spans[0], { doc: "a", start: 0, end: 400 }); // 200..300 crosses 250: both
  assert.deepEqual(spans[2], { doc: "b", start: 0, end: 100 }); // 0..100 of b touches no parent
});

test("pieces are taken in rank order up to the budget; a repeated parent costs nothing, a window is paid again", () => {
  const pieces = [
    { doc: "a", start: 0, end: 300 },
    { doc: "a", start: 0, end: 300 },
    { doc: "a", start: 300, end: 500 },
  ];
  const length = (p: { start: number; end: number }) => p.end - p.start;
  const once = piecesWithinBudget([0, 1, 2], (i) => pieces[i], length, 500, true);
  assert.deepEqual(once, { taken: 3, pieces: [pieces[0], pieces[2]] });
  const again = piecesWithinBudget([0, 1, 2], (i) => pieces[i], length, 500, false);
  assert.deepEqual(again, { taken: 1, pieces: [pieces[0]] }); // 300 + 300 > 500: stops at the second
});

test("expansion and parent flags are read, and bad ones refused naming the flag", () => {
  assert.deepEqual(parseExpandList("0,1,2"), [0, 1, 2]);
  assert.deepEqual(parseParentsList("section,4000", 2000), ["section", 4000]);
  const named = (flag: string) => (e: Error) => e instanceof SeamlabError && e.message.startsWith(flag);
  assert.throws(() => parseExpandList("1,x"), named("--expand"));
  assert.throws(() => parseExpandList("11"), named("--expand"));
  assert.throws(() => parseParentsList("chapter", 1000), named("--parents"));
  assert.throws(() => parseParentsList("1000", 1000), named("--parents 1000 is not larger"));
  assert.equal(strategyName({ expand: 2 }), "overlap 0 + ±2 neighbours");
  assert.equal(strategyName({ parents: 4000 }), "overlap 0 + 4000-char parents");
});

test("with neighbours a query is a hit when its gold span lies inside a pasted window", async () => {
  const docs: Doc[] = [
    { id: "a", text: "y".repeat(400) },
    { id: "b", text: "z".repeat(200) },
  ];
  // Gold 150..250 straddles the seam at 200: no single chunk holds it, the ±1 window of chunk 0 (100..300) does.
  const queries: Query[] = [{ id: "q", text: "q", gold: [{ doc: "a", start: 150, end: 250 }] }];
  const retriever: Retriever = {
    name: "fixed",
    search: (_q, k) => [0, 4, 1].slice(0, k).map((index) => ({ index, score: 0 })),
  };
  const options = { docs, countTokens: (text: string) => text.length / 10, once: false };
  const windows = neighbourWindows(chunks, 1);
  const [outcome] = await evaluateWithPieces(chunks, queries, retriever, {
    ...options,
    pieces: windows,
    budget: { amount: 450, unit: "chars" },
  });
  // The window of chunk 0 (100..400, 300 chars) fits; chunk 4's (200..400, 200 more) would make 500: the context ends.
  assert.deepEqual([outcome.hit, outcome.ranked, outcome.contextChars, outcome.contextTokens], [true, [0], 300, 30]);
  // The plain chunks at the same budget all fit (300 chars) and miss it: none holds 150..250 whole.
  const [plain] = await evaluateWithPieces(chunks, queries, retriever, {
    ...options,
    pieces: chunks,
    budget: { amount: 450, unit: "chars" },
  });
  assert.equal(plain.hit, false);
});

test("a query whose best chunk's window alone is over the budget is marked, counted, and its row says so", async () => {
  const docs: Doc[] = [
    { id: "a", text: "y".repeat(400) },
    { id: "b", text: "z".repeat(200) },
  ];
  const queries: Query[] = [
    { id: "middle", text: "middle", gold: [{ doc: "a", start: 150, end: 250 }] },
    { id: "edge", text: "edge", gold: [{ doc: "b", start: 10, end: 50 }] },
  ];
  // "middle" ranks chunk 0 (a 200..300) first: its ±1 window is a 100..400, 300 chars; "edge" ranks chunk 2 (b 0..100):
  // its window is b 0..200, 200 chars.
  const retriever: Retriever = {
    name: "fixed",
    search: (q, k) => (q === "middle" ? [0, 2] : [2, 0]).slice(0, k).map((index) => ({ index, score: 0 })),
  };
  const outcomes = await evaluateWithPieces(chunks, queries, retriever, {
    docs,
    countTokens: (text: string) => text.length,
    once: false,
    pieces: neighbourWindows(chunks, 1),
    budget: { amount: 250, unit: "chars" },
  });
  assert.deepEqual(
    outcomes.map((o) => [o.id, o.ranked, o.hit, o.topOverBudget === true]),
    [
      ["middle", [], false, true],
      ["edge", [2], true, false],
    ],
  );
  const summary = summarizeOutcomes(outcomes, { retriever: "fixed", k: 5, chunks: chunks.length });
  assert.equal(summary.queriesTopOverBudget, 1);
  const plain = summarizeOutcomes([outcomes[1]], { retriever: "fixed", k: 5, chunks: chunks.length });
  assert.equal("queriesTopOverBudget" in plain, false, "a row where every window fit carries no count");
  assert.equal(
    topOverBudgetText({ name: "overlap 0 + ±1 neighbours", over: 1, queries: 2, parents: false }, "250 chars"),
    "overlap 0 + ±1 neighbours: for 1 of 2 queries the best chunk's window alone is over the budget of 250 chars, " +
      "so nothing reached the prompt (a miss): its hit rate counts those as misses; try fewer neighbours or a " +
      "larger --context-budget.",
  );
  assert.match(
    topOverBudgetText({ name: "overlap 0 + section parents", over: 2, queries: 2, parents: true }, "250 chars") ?? "",
    /every one of the 2 queries the best chunk's parent .* its hit rate says nothing of the lever; try smaller parents/,
  );
  assert.equal(topOverBudgetText({ name: "x", over: 0, queries: 2, parents: false }, "250 chars"), undefined);
});
