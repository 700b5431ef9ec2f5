// `seamlab report --budget` for notebooks 01 and 02: the document sample their sampled seam cells measure.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Doc } from "../../src/core/types";
import { chooseDocumentBudget, minBudgetDocuments, pilotDocumentCost, sampledMeasures } from "../../src/report/budget";
import { readNotebook } from "../../src/report/nbformat";
import { declaredWork } from "../../src/report/plan/declared-work";

const lengths = (n: number, chars: number) => Array.from({ length: n }, () => chars);
const choose = (budgetMinutes: number, perCharMs: Record<string, number>, modelled: number, jobs: number, n: number) =>
  chooseDocumentBudget({
    budgetMinutes,
    perCharMs,
    modelledNotebooks: modelled,
    jobs,
    spentMs: 0,
    docLengths: lengths(n, n === 1_000 ? 1_000 : 10_000),
  });

test("a budget every document fits keeps the auto sample and says so", () => {
  const choice = chooseDocumentBudget({
    budgetMinutes: 5,
    perCharMs: { "01": 0.001, "02": 0.004 },
    modelledNotebooks: 6,
    jobs: 2,
    spentMs: 1_000,
    docLengths: lengths(100, 10_000),
  });
  // the costlier notebook (02): 100 documents × 10,000 chars × 0.004 ms = 4 s, far inside its share
  assert.equal(choice.sample, undefined);
  assert.match(choice.line, /^budget 5 min for notebooks 01, 02 \(their sampled seam cells\): every one of the 100 /);
  assert.match(choice.line, /stays auto/);
  // both notebooks' cells, 2 at a time, each 1.3x slower on busy cores: (1 + 4) s × 1.3 / 2
  assert.equal(Math.round(choice.estimatedMs), 3_250);
});

test("a tight budget samples as many documents as fit the notebook's share, and the line names the sample", () => {
  const choice = choose(1, { "02": 0.01 }, 6, 2, 5_000);
  // share: 60 s × (2 jobs / 1.3 slower on busy cores) / 6 notebooks = 15.4 s; a document costs 100 ms: 153
  assert.equal(choice.sample, 153);
  // 153 × 100 ms × 1.3 / 2
  assert.match(choice.line, /a seeded stratified sample of 153 of 5,000 documents, estimated 9\.9 s/);
  assert.doesNotMatch(choice.line, /does not fit/);
});

test("when even the fewest documents do not fit, the budget says so and takes the floor", () => {
  const choice = choose(0.1, { "01": 1 }, 1, 1, 1_000); // 1,000 documents of 1,000 characters
  assert.equal(choice.sample, minBudgetDocuments);
  assert.match(choice.line, /does not fit; a seeded stratified sample of 20 of 1,000 documents/);
});

test("the document pilot times each sampled notebook on a few documents (fake clock)", () => {
  const docs: Doc[] = Array.from({ length: 40 }, (_, i) => ({
    id: `d${i}.md`,
    text: `${"A short sentence here. ".repeat(30 + i)}\n\n${"Another paragraph follows it. ".repeat(20)}`,
  }));
  let clock = 0;
  // the sampled cells 01 and 02 declare, at their own parameters
  const cells = Object.fromEntries(
    ["01-how-much-overlap", "02-seam-damage"].map((name) => {
      const path = `notebooks/${name}.ipynb`;
      return [name.slice(0, 2), declaredWork(readNotebook(path), path)!.pilot!];
    }),
  );
  assert.deepEqual(
    Object.values(cells).map((c) => c.kind),
    ["seams", "damage"],
  );
  const pilot = pilotDocumentCost(docs, sampledMeasures(cells), () => (clock += 1_000));
  // reads: start, before and after 01, before and after 02, end: 5 s from start
  assert.equal(pilot.spentMs, 5_000);
  assert.deepEqual(Object.keys(pilot.perCharMs), ["01", "02"]);
  for (const ms of Object.values(pilot.perCharMs)) assert.ok(ms > 0 && ms < 1_000 / 20_000);
});

test("the document pilot warms up before timing: a cost paid once per kernel is not counted per character", () => {
  const docs: Doc[] = Array.from({ length: 40 }, (_, i) => ({ id: `d${i}`, text: "x".repeat(1_000) }));
  // a fake notebook whose first call pays 1 s once (a thread starting), then 1 ms per document, on a fake clock
  let clock = 0;
  let started = false;
  const measure = (_docs: readonly Doc[], sample: { kind: string; count?: number }) => {
    if (!started) clock += 1_000;
    started = true;
    clock += sample.count ?? 0;
  };
  const pilot = pilotDocumentCost(docs, { "01": measure }, () => clock);
  // 30 documents of 1,000 characters in 30 ms: 0.001 ms per character (cold, it was 1,030 ms: 0.034)
  assert.equal(pilot.perCharMs["01"], 30 / 30_000);
});

test("01-02's share leaves out what the other notebooks' least work needs", () => {
  const base = {
    budgetMinutes: 10,
    perCharMs: { "01": 0.001, "02": 0.01 },
    modelledNotebooks: 7,
    jobs: 1,
    spentMs: 0,
    docLengths: lengths(50_000, 10_000),
  };
  // equal shares: 600 s / 7 notebooks ≈ 85.7 s; a document of 02 costs 100 ms: 857 documents
  assert.equal(chooseDocumentBudget(base).sample, 857);
  // the others' least work needs 9 of the 10 minutes: 01 and 02 share 95% of the last one, 28.5 s each, 285 documents
  assert.equal(chooseDocumentBudget({ ...base, reservedMs: 540_000 }).sample, 285);
  // a reserve that leaves more than the equal share changes nothing
  assert.equal(chooseDocumentBudget({ ...base, reservedMs: 60_000 }).sample, 857);
  // one that leaves nothing still takes the fewest documents a sample may have
  assert.equal(chooseDocumentBudget({ ...base, reservedMs: 900_000 }).sample, minBudgetDocuments);
});

test("a budget under a minute is printed at its own precision: 0.001 min, not 'budget 0 min'", () => {
  const tiny = choose(0.001, { "02": 0.01 }, 6, 2, 5_000);
  assert.match(tiny.line, /^budget 0\.001 min for notebooks 02 /);
  assert.doesNotMatch(tiny.line, /budget 0 min/);
  assert.match(choose(2.345, { "02": 0.01 }, 6, 2, 5_000).line, /^budget 2\.35 min /);
});

test("a sample estimated under a second says its milliseconds, not 0.0 s", () => {
  const choice = chooseDocumentBudget({
    budgetMinutes: 5,
    perCharMs: { "01": 0.00001, "02": 0.00004 },
    modelledNotebooks: 6,
    jobs: 2,
    spentMs: 0,
    docLengths: lengths(100, 10_000),
  });
  // (0.1 + 0.4) ms per document × 100 documents × 1.3 slower on busy cores / 2 at a time
  assert.equal(Math.round(choice.estimatedMs), 33);
  assert.match(choice.line, /\(estimated 33 ms\)/);
  assert.doesNotMatch(choice.line, /0\.0 s/);
});
