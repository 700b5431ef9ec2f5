import { test } from "node:test";
import assert from "node:assert/strict";
import type { SweepResult } from "../../src/experiment/sweep";
import { compareWithTruth, validationMarkdown, type SourceSweeps } from "../../src/study/query-validation";

/** A minimal sweep result: hit rates per overlap for one splitter and size, and the recommended overlap `knee`. */
function result(splitter: string, size: number, hitRates: Record<number, number>, knee: number): SweepResult {
  const overlaps = Object.keys(hitRates).map(Number);
  const best = overlaps.reduce((a, b) => (hitRates[b] > hitRates[a] ? b : a));
  return {
    rows: overlaps.map((overlap) => ({
      config: { splitter: { splitter, size, overlap }, retrieval: { k: 5 } },
      retrieval: { hitRate: hitRates[overlap] },
    })),
    curves: [
      {
        splitter,
        size,
        points: overlaps.map((x) => ({ x, y: hitRates[x] })),
        decision: {
          choice: overlaps.indexOf(knee),
          verdict: "undecided",
          configs: overlaps.map((x) => ({ status: x === knee || x === best ? "non-inferior" : "worse" })),
        },
        knee: {
          plateau: { x: knee, bestX: best, bestY: hitRates[best], rule: "ci" },
          kneedle: null,
          agree: false,
          notes: [],
        },
      },
    ],
  } as unknown as SweepResult;
}

const sweeps = (source: string, results: SweepResult[]): SourceSweeps => ({
  source,
  label: `${source} queries`,
  queries: 100,
  results,
});

test("a proxy that orders configs like the truth and picks the same overlaps agrees fully", () => {
  const truth = sweeps("labelled", [result("recursive", 500, { 0: 0.5, 100: 0.6, 200: 0.62 }, 100)]);
  const proxy = sweeps("ict", [result("recursive", 500, { 0: 0.2, 100: 0.25, 200: 0.3 }, 100)]);
  const agreement = compareWithTruth(truth, proxy);
  assert.equal(agreement.tau, 1);
  assert.deepEqual(agreement.recommendations, [{ curve: "recursive@500", truth: 100, proxy: 100, agree: true }]);
  assert.deepEqual(agreement.misleads, []);
  assert.equal(agreement.check?.nearPick, 1);
  assert.equal(agreement.check?.inSet, 1);
  // mean hit rate 0.25 against 0.573: 32.3 points below
  assert.ok(Math.abs(agreement.levelGap - (100 * (0.75 - 1.72)) / 3) < 1e-9);
});

test("a proxy with the reverse order and another knee is reported as misleading, in words", () => {
  const truth = sweeps("labelled", [
    result("recursive", 500, { 0: 0.5, 100: 0.6 }, 100),
    result("window", 500, { 0: 0.4, 100: 0.45 }, 0),
  ]);
  const proxy = sweeps("ict", [
    result("recursive", 500, { 0: 0.3, 100: 0.2 }, 0),
    result("window", 500, { 0: 0.5, 100: 0.4 }, 0),
  ]);
  const agreement = compareWithTruth(truth, proxy);
  assert.equal(agreement.tau, -1, "every pair of configs in the opposite order");
  assert.equal(agreement.recommendations.filter((r) => r.agree).length, 1);
  assert.match(
    agreement.misleads.join("\n"),
    /recursive@500: recommends overlap 0 where labelled questions recommend 100/,
  );
  assert.match(agreement.misleads.join("\n"), /ranks configs differently/);
  assert.match(agreement.misleads.join("\n"), /picks splitter window as best where labelled questions pick recursive/);
  const table = validationMarkdown([
    {
      corpus: "c",
      kind: "k",
      documents: 1,
      characters: 1,
      truth: { label: "t", queries: 9 },
      proxies: [agreement],
      unavailable: [{ source: "headers", reason: "no ## headings" }],
    },
  ]);
  assert.match(table, /\| recommended overlaps r500 w500: labelled → proxy \|/);
  // by hand: recursive picks 100 → 0 (one step, 0 ruled out by the labels), window 0 → 0 (inside {0, 100});
  // statuses agree on window's 0 only: 1 of 4 configs
  assert.match(table, /\| c \| ict \| 9 \/ 100 \| -1\.00 \| 1\/2 \| 2\/2 \| 1\/2 \| 25% \| 100 0 → 0 0 \|/);
  assert.match(table, /\| c \| headers \| 9 \/ 0 \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \| no ## headings \| n\/a \|/);
});
