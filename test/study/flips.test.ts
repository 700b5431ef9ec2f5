import { test } from "node:test";
import assert from "node:assert/strict";
import { flipRows, flipTableRows, nearestSeam, piecesOf } from "../../src/study/flips";
import { piecesText } from "../../src/notebook/flips";
import { a, b, doc, gold, queries } from "../helpers/flips-fixture";

test("flips pair the same queries: B's wins and losses, ties left out, counted from B's side", () => {
  const { summary, rows } = flipRows([doc], queries, a, b);
  assert.deepEqual(
    rows.map((r) => [r.id, r.outcome]),
    [
      ["q1", "b wins"],
      ["q3", "b loses"],
    ],
  );
  assert.equal(summary.wins, 1);
  assert.equal(summary.losses, 1);
  assert.equal(summary.ties, 1);
  assert.equal(rows[0].gold.text, "<b>Gold & text</b>");
  assert.equal(rows[0].b.chunks[0].containsGold, true);
  assert.equal(rows[0].a.chunks[0].containsGold, false);
});

test("each side names the chunk boundary inside the gold span, or the nearest one and its distance", () => {
  const [win] = flipRows([doc], queries, a, b).rows;
  assert.deepEqual(win.a.seam, { at: 14, edge: "end", chunk: 0, inside: true, distance: 0, insideCount: 2 });
  // B's boundaries are 12 (a start) and 26 (an end): 12 lies inside the gold, 26 just after it.
  assert.equal(win.b.seam?.at, 12);
  assert.equal(win.b.seam?.insideCount, 1);
  const outside = nearestSeam([{ at: 30, edge: "start", chunk: 2 }], gold);
  assert.deepEqual(outside, { at: 30, edge: "start", chunk: 2, inside: false, distance: 5, insideCount: 0 });
});

test("the gold view cuts text at the gold span and marks each boundary where it falls", () => {
  const pieces = piecesOf("Intro. <b>Gold", 0, gold, [{ at: 7, edge: "start", chunk: 1 }]);
  assert.deepEqual(pieces, [
    { kind: "text", text: "Intro. ", gold: false },
    { kind: "seam", at: 7, edge: "start", chunk: 1 },
    { kind: "text", text: "<b>Gold", gold: true },
  ]);
  const [win] = flipRows([doc], queries, a, b, { context: 3 }).rows;
  // Boundaries at the view's edge (28: A's chunk 1 ends, chunk 2 starts) are shown too.
  assert.equal(piecesText(win.a.goldView), "o. [[<b>Gold]]⟩⟨[[ & text</b>]] he⟩⟨");
});

test("the table rows say where each side's nearest seam is, ready for a notebook table", () => {
  const rows = flipTableRows(flipRows([doc], queries, a, b).rows);
  assert.deepEqual(rows[0], {
    query: "gold text",
    outcome: "b wins",
    gold: "d.md [7, 25)",
    "gold chars": 18,
    "seams of A": "2 inside the gold",
    "seams of B": "1 inside the gold",
  });
});
