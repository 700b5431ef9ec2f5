import test from "node:test";
import assert from "node:assert/strict";
import type { CostedRow } from "../../src/experiment/run";
import type { RedundancyRows } from "../../src/study/redundancy";
import { bestMmrFinding, mmrDecision } from "../../src/study/redundancy";

const QUERIES = 400;

function cell(overlap: number, depth: number, storage: number, hit: (i: number) => boolean): CostedRow {
  const hits = Array.from({ length: QUERIES }, (_, i) => (hit(i) ? "1" : "0")).join("");
  const rate = [...hits].filter((h) => h === "1").length / QUERIES;
  return {
    label: `overlap ${overlap} depth ${depth}`,
    config: { splitter: { splitter: "recursive", size: 1000, overlap }, retrieval: { k: depth, finalK: 5 } },
    cost: { storageBytes: storage },
    retrieval: { hitRate: rate, hitRateCI: { low: rate - 0.05, high: rate + 0.05 } },
    hits,
  } as unknown as CostedRow;
}

function grid(bestHit: (i: number) => boolean): RedundancyRows {
  const half = (i: number) => i % 2 === 0;
  // Listed out of cost order on purpose: the decision must sort by vectors stored, then depth.
  const reranked = [
    cell(200, 10, 110, bestHit),
    cell(0, 10, 100, half),
    cell(200, 5, 110, half),
    cell(0, 5, 100, half),
  ];
  return { plain: [cell(0, 5, 100, half), cell(200, 5, 110, half)], reranked, dense: [] };
}

test("04's MMR verdict picks the cheapest cell when no cell is shown better than it", () => {
  const { cells, decision } = mmrDecision(grid((i) => i % 2 === 0));
  assert.deepEqual(
    cells.map((c) => [c.config.splitter.overlap, c.config.retrieval.k]),
    [
      [0, 5],
      [0, 10],
      [200, 5],
      [200, 10],
    ],
  );
  assert.equal(decision.verdict, "decided");
  assert.equal(decision.choice, 0);
});

test("04's MMR verdict recommends a better, costlier cell only when the paired rule shows every cheaper cell worse", () => {
  const g = grid((i) => i % 2 === 0 || i % 5 === 1);
  const { cells, decision } = mmrDecision(g);
  assert.equal(decision.verdict, "decided");
  assert.deepEqual(
    [cells[decision.choice].config.splitter.overlap, cells[decision.choice].config.retrieval.k],
    [200, 10],
  );
  const text = bestMmrFinding(g, 5);
  assert.match(text, /Paired over all 4 cells on the same 400 queries/);
  assert.match(text, /\*\*Use overlap 200, first stage 10\*\*/);
});

test("04's MMR verdict says undecided, with the queries it would need, when the best cell's lead is within noise", () => {
  const g = grid((i) => i % 2 === 0 || i === 1 || i === 3);
  const { decision } = mmrDecision(g);
  assert.equal(decision.verdict, "undecided");
  assert.match(bestMmrFinding(g, 5), /\*\*Undecided\*\*.*queries/);
});
