import { test } from "node:test";
import assert from "node:assert/strict";
import type { Query } from "../../src/core/types";
import { chunkBoundaries, cutsInside, exposureCount, markCutQueries, unexposedFlips } from "../../src/measure/exposure";
import { splitCorpus } from "../../src/splitters/registry";

const q = (id: string, start: number, end: number, doc = "d"): Query => ({ id, text: id, gold: [{ doc, start, end }] });

// A 30-character document under the window splitter at size 10, worked by hand:
//   overlap 0: [0,10) [10,20) [20,30)                    boundaries 0 10 20 30
//   overlap 5: [0,10) [5,15) [10,20) [15,25) [20,30)     boundaries 0 5 10 15 20 25 30
const doc = { id: "d", text: "abcdefghijklmnopqrstuvwxyz0123" };
const queries = [
  q("A starts the document", 0, 8), // cut only by 5 (overlap 5)
  q("B", 12, 18), // cut only by 15 (overlap 5)
  q("C is one chunk at overlap 0", 10, 20), // its edges are boundaries, not cuts; 15 cuts it at overlap 5
  q("D", 21, 24), // between 20 and 25: never cut
  q("E", 8, 12), // 10 cuts it at overlap 0
];
const chunksAt = (overlap: number) => splitCorpus([doc], { splitter: "window", size: 10, overlap, unit: "chars" });

test("chunk boundaries are each document's chunk starts and ends, ascending, without repeats", () => {
  assert.deepEqual(chunkBoundaries(chunksAt(0)).get("d"), [0, 10, 20, 30]);
  assert.deepEqual(chunkBoundaries(chunksAt(5)).get("d"), [0, 5, 10, 15, 20, 25, 30]);
  const two = chunkBoundaries([
    { doc: "b", start: 4, end: 9 },
    { doc: "a", start: 0, end: 3 },
  ]);
  assert.deepEqual(
    [...two.entries()],
    [
      ["b", [4, 9]],
      ["a", [0, 3]],
    ],
  );
});

test("a boundary cuts a span only strictly inside it, never at its edges", () => {
  const b = [0, 10, 20, 30];
  assert.equal(cutsInside(b, 10, 20), false, "edges 10 and 20");
  assert.equal(cutsInside(b, 9, 20), true, "10 is inside [9, 20)");
  assert.equal(cutsInside(b, 10, 21), true, "20 is inside [10, 21)");
  assert.equal(cutsInside(b, 0, 8), false);
  assert.equal(cutsInside(b, 30, 35), false, "past the last boundary");
  assert.equal(cutsInside([], 0, 5), false);
});

test("overlap 0 alone exposes only the span a seam cuts; adding overlap 5 exposes every span but D", () => {
  const exposed = new Uint8Array(queries.length);
  markCutQueries(queries, chunksAt(0), exposed);
  assert.deepEqual([...exposed], [0, 0, 0, 0, 1]);
  markCutQueries(queries, chunksAt(5), exposed);
  assert.deepEqual([...exposed], [1, 1, 1, 0, 1]);
  assert.deepEqual(exposureCount(exposed), { queries: 5, exposed: 4, share: 0.8 });
});

test("a query with two gold spans is exposed when either is cut, and chunks of other documents cut nothing", () => {
  const two: Query = {
    id: "two",
    text: "t",
    gold: [
      { doc: "d", start: 21, end: 24 },
      { doc: "e", start: 2, end: 6 },
    ],
  };
  const exposed = new Uint8Array(1);
  markCutQueries([two], chunksAt(0), exposed);
  assert.equal(exposed[0], 0, "only document d was split: 21-24 is whole");
  markCutQueries([two], [{ doc: "e", start: 0, end: 4 }], exposed);
  assert.equal(exposed[0], 1, "a chunk of e ends at 4, inside 2-6");
});

test("under the recursive splitter a sentence inside a paragraph shorter than the size is never cut; one across paragraphs is", () => {
  // three 30-character paragraphs: at size 50 no two fit in one chunk, so every chunk is one whole paragraph,
  // and an overlap of 20 cannot carry a whole 30-character paragraph back
  const p = ["Alpha alpha alpha alpha alpha.", "Bravo bravo bravo bravo bravo.", "Charlie charlie charlie charl."];
  const text = p.join("\n\n");
  const book = { id: "book", text };
  const second = text.indexOf(p[1]);
  const spans = [
    q("first sentence at character 0", 0, 12, "book"),
    q("inside the second paragraph", second + 6, second + 17, "book"),
    q("across the first break", 20, second + 5, "book"),
  ];
  const exposed = new Uint8Array(spans.length);
  for (const overlap of [0, 20])
    markCutQueries(spans, splitCorpus([book], { splitter: "recursive", size: 50, overlap, unit: "chars" }), exposed);
  assert.deepEqual([...exposed], [0, 0, 1]);
});

test("unexposed queries whose hit differs between configs are counted as ranking flips", () => {
  const exposed = Uint8Array.from([1, 0, 0, 0]);
  assert.equal(unexposedFlips(exposed, ["1001", "0001", "1011"]), 1, "query 2 flips; query 0 is exposed");
  assert.equal(unexposedFlips(exposed, []), 0);
});
