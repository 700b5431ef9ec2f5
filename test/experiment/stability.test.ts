import { test } from "node:test";
import assert from "node:assert/strict";
import { decideNonInferior, type DecisionItem } from "../../src/stats/non-inferiority";
import {
  coarserGrid,
  curveStability,
  shortAnswer,
  stabilityText,
  verdictStability,
} from "../../src/experiment/stability";
import { sweepCurves } from "../../src/experiment/sweep";
import { costedRow } from "../helpers/costed-row";

const bits = (text: string) => Array.from(text, (c) => (c === "1" ? 1 : 0));

/** Configs on 2,000 queries, each from blocks of [hits-or-misses, length] (the same query order in all). */
function grid(specs: Record<string, string>): DecisionItem[] {
  return Object.entries(specs).map(([label, text], k) => ({ label, cost: k + 1, outcomes: bits(text) }));
}

/** 0 and 150 are 10 points down from 50; 100 ties 50 with 100 wins and 100 losses of 2,000 queries. */
function tiedAtTheTop(): DecisionItem[] {
  const rest = "1".repeat(600) + "0".repeat(1000);
  const fifty = "1".repeat(100) + "0".repeat(100) + "1".repeat(200) + rest;
  const hundred = "0".repeat(100) + "1".repeat(100) + "1".repeat(200) + rest;
  const down = "1".repeat(100) + "0".repeat(100) + "0".repeat(200) + rest;
  return grid({ "0": down, "50": fifty, "100": hundred, "150": down });
}

test("the coarser grid keeps the baseline and every other point, in the phase that keeps the choice", () => {
  assert.deepEqual(coarserGrid(7, 0, 3), [0, 1, 3, 5]);
  assert.deepEqual(coarserGrid(7, 0, 4), [0, 2, 4, 6]);
  assert.deepEqual(coarserGrid(7, 0, 0), [0, 1, 3, 5]);
  assert.deepEqual(coarserGrid(3, 0, 2), [0, 2]);
  assert.equal(coarserGrid(2, 0, 1), null);
});

test("a clear verdict is stable across seeds and a coarser grid", () => {
  // 200 queries each of 100 and 200 hit that 0 misses; 100, 200 and 400 agree on every query.
  const top = "1".repeat(1200) + "0".repeat(800);
  const zero = "0".repeat(200) + "1".repeat(1000) + "0".repeat(800);
  const items = grid({ "0": zero, "100": top, "200": top, "400": top });
  const decision = decideNonInferior(items);
  assert.equal(decision.verdict, "decided");
  const stability = verdictStability(items, decision, { name: (l) => `overlap ${l}` });
  assert.equal(stability.answer, "overlap 100");
  assert.equal(stability.text, "stable");
  assert.ok(stability.stable);
  assert.deepEqual(
    stability.checks.map((c) => `${c.kind}: ${c.label} → ${c.answer}`),
    [
      "seed: seed 2 → overlap 100",
      "seed: seed 3 → overlap 100",
      "grid: grid (overlap 0, overlap 100, overlap 400) → overlap 100",
    ],
  );
});

test("a leaning verdict that a coarser grid would decide says the grid moves it", () => {
  const items = tiedAtTheTop();
  const decision = decideNonInferior(items);
  assert.equal(shortAnswer(decision), "leaning 50");
  const stability = verdictStability(items, decision);
  assert.equal(stability.stable, false);
  // Dropping 100, the near-tie, leaves 50 clear of the rest: decided there.
  assert.equal(stability.text, "moves: a coarser grid (0, 50, 150) says 50");
});

test("the query sources are named side by side when they disagree, and agreeing ones leave it stable", () => {
  const items = tiedAtTheTop();
  const decision = decideNonInferior(items);
  const top = "1".repeat(1200) + "0".repeat(800);
  const ict = decideNonInferior(grid({ "0": "0".repeat(200) + top.slice(200), "50": top, "100": top, "150": top }));
  assert.equal(shortAnswer(ict), "50");
  const moved = verdictStability(items, decision, { source: "headers", sources: { ict }, otherSeeds: [] });
  assert.equal(moved.text, "moves: a coarser grid (0, 50, 150) says 50; headers say leaning 50, ICT says 50");
  const labelled = decideNonInferior(items, { seed: 9 });
  const same = stabilityText(
    "leaning 50",
    [{ kind: "source", label: "labelled questions", source: "labelled", answer: shortAnswer(labelled), moves: false }],
    "headers",
  );
  assert.equal(same, "stable");
});

test("a verdict on the edge of its margin moves with the bootstrap seed, and says which seed says what", () => {
  // 1,000 queries: 100, 200 and 400 tie, each hitting its own 40 of the first 120 (the best re-picked per replicate
  // moves their bounds with the seed); 0 hits half of 100's 40.
  const of = (hit: (q: number) => boolean) =>
    Array.from({ length: 1000 }, (_, q) => (hit(q) || (q >= 400 && q < 760) ? 1 : 0));
  const items: DecisionItem[] = [
    { label: "0", cost: 0.5, outcomes: of((q) => q < 40 && q % 2 === 0) },
    { label: "100", cost: 1, outcomes: of((q) => q < 40) },
    { label: "200", cost: 2, outcomes: of((q) => q >= 40 && q < 80) },
    { label: "400", cost: 3, outcomes: of((q) => q >= 80 && q < 120) },
  ];
  const bounds = [1, 2, 3, 4, 5].map((seed) => decideNonInferior(items, { seed }).configs[1].fromBest.high);
  const low = Math.min(...bounds);
  const high = Math.max(...bounds);
  assert.ok(low < high, `${bounds}`);
  // A margin between them: the seed with the lowest bound shows 100 within it, the one with the highest does not.
  const margin = (low + high) / 2;
  const seed = bounds.indexOf(low) + 1;
  const other = bounds.indexOf(high) + 1;
  const decision = decideNonInferior(items, { seed, margin });
  assert.equal(shortAnswer(decision), "100");
  const stability = verdictStability(items, decision, { seed, margin, otherSeeds: [other] });
  assert.equal(stability.stable, false);
  const again = shortAnswer(decideNonInferior(items, { seed: other, margin }));
  assert.notEqual(again, "100");
  assert.match(stability.text, new RegExp(`^moves: seed ${other} says ${again.replace(/[()]/g, "\\$&")}`));
});

test("a grid with one point besides the baseline has no coarser grid, and says so", () => {
  const items = grid({ "0": "1".repeat(1500) + "0".repeat(500), "200": "1".repeat(1500) + "0".repeat(500) });
  const stability = verdictStability(items, decideNonInferior(items));
  assert.deepEqual(stability.skipped, ["no coarser grid: 1 point besides the baseline"]);
  assert.deepEqual(
    stability.checks.map((c) => c.kind),
    ["seed", "seed"],
  );
});

test("a decision of other items is refused", () => {
  const items = tiedAtTheTop();
  assert.throws(
    () => verdictStability(items.slice(1), decideNonInferior(items)),
    /pass the items the decision was made on/,
  );
});

test("a sweep curve's stability is its own decision re-made on its rows, configs named by overlap", () => {
  const items = tiedAtTheTop();
  // chunks grow with the overlap: the index cost orders the configs as their overlaps do
  const rows = items.map((item) =>
    costedRow(Number(item.label), (item.outcomes as number[]).join(""), 100 + Number(item.label)),
  );
  const curve = sweepCurves(rows, "hitRate")[0];
  const stability = curveStability(curve, rows);
  assert.equal(
    stability.answer,
    shortAnswer(curve.decision, (label) => `overlap ${label.split("/")[1]}`),
  );
  assert.ok(
    stability.checks.some((c) => c.kind === "grid" && /^grid \(overlap 0, /.test(c.label)),
    stability.text,
  );
  assert.equal(stability.checks.filter((c) => c.kind === "seed").length, 2);
});
