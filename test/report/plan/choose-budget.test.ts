// The `--budget` planner without the CLI and without kernels: fake pilot results in, a plan out.
import { test } from "node:test";
import { basename } from "node:path";
import assert from "node:assert/strict";
import { SeamlabError } from "../../../src/core/errors";
import { planBudget } from "../../../src/report/plan/choose-budget";
import type { BudgetInput, BudgetProbes, CorpusOutline, RetrievalPilot } from "../../../src/report/plan/types";
import { notebookTimeLimitMs } from "../../../src/report/budget-work";
import { kernelBytes } from "../../../src/report/plan/memory";
import { declared, notebookPaths } from "../../helpers/declared-work";

const GB = 1024 ** 3;
/** The shipped notebooks' file names; `declared` is what their metadata declares. */
const allNames = notebookPaths.map((path) => basename(path));

/** A corpus of `docs` documents of `length` characters each, read in `readMs`. */
function outline(docs: number, length: number, readMs = 1_000): CorpusOutline {
  const outlines = Array.from({ length: docs }, (_, i) => ({ id: `doc-${i}.md`, length }));
  return { outlines, chars: docs * length, readMs };
}

function pilotOf(overrides: Partial<RetrievalPilot> = {}): RetrievalPilot {
  return {
    model: { fixedMs: 100, perQueryMs: 0.3 },
    population: 301,
    scale: 1,
    sampleChars: 1_000_000,
    loadMs: 9_000,
    spentMs: 15_000,
    ...overrides,
  };
}

/** Fake probes: a frozen clock, a fixed process size, the given outline and pilots; every call and line recorded. */
function fakeProbes(corpus: CorpusOutline, pilot: RetrievalPilot, perCharMs = 0.001) {
  const lines: string[] = [];
  const calls = {
    retrievalPilot: 0,
    documentPilotIds: [] as number[],
    documentPilotCells: [] as string[],
    collectGarbage: 0,
  };
  const probes: BudgetProbes = {
    log: (line) => lines.push(line),
    now: () => 0,
    rss: () => 0.1 * GB,
    corpusBytes: () => corpus.chars,
    outlineCorpus: () => corpus,
    retrievalPilot: async () => {
      calls.retrievalPilot++;
      return { outline: corpus, pilot };
    },
    collectGarbage: () => {
      calls.collectGarbage++;
    },
    documentPilot: (_corpus, ids, cells) => {
      calls.documentPilotIds.push(ids.length);
      calls.documentPilotCells.push(...Object.entries(cells).map(([p, c]) => `${p} ${c.kind}`));
      return { perCharMs: Object.fromEntries(Object.keys(cells).map((p) => [p, perCharMs])) };
    },
  };
  return { probes, lines, calls };
}

const input = (overrides: Partial<BudgetInput>): BudgetInput => ({
  budgetMinutes: 2,
  names: ["03-overlap-sweep.ipynb"],
  requestedJobs: 2,
  maxBytes: 12 * GB,
  corpus: "/corpora/small",
  kernelStartMs: 8_000,
  declared,
  ...overrides,
});

test("a small corpus and notebook 03 alone: every query runs at the full work, with a time limit over the estimate", async () => {
  const { probes, lines, calls } = fakeProbes(outline(200, 5_000), pilotOf());
  const plan = await planBudget(input({}), probes);
  assert.equal(calls.retrievalPilot, 1);
  assert.equal(calls.collectGarbage, 1);
  assert.deepEqual(calls.documentPilotIds, [], "no document notebook, so no document pilot");
  assert.deepEqual(plan.parameters, { querySample: "all" });
  assert.equal(plan.jobs, 1, "one notebook runs one kernel");
  assert.equal(plan.kernelWorkers, undefined);
  assert.deepEqual(Object.keys(plan.plans), ["03"]);
  const { estimatedMs, timeLimitMs, parameters, skip, skipAll } = plan.plans["03"];
  assert.ok(estimatedMs! > 9_000, "the estimate holds the kernel load and sweep setup");
  assert.equal(timeLimitMs, notebookTimeLimitMs(estimatedMs!));
  assert.equal(parameters ?? skip ?? skipAll, undefined, "the full work: nothing reduced");
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^max memory 12\.00 GB: 1 notebook at a time/);
  assert.match(lines[1], /^budget 2 min for notebooks 03: all 301 queries/);
  assert.match(lines[1], /\(piloted in CPU time on the whole corpus; kernel load and sweep setup ~9 s each\)$/);
});

test("a large corpus piloted on a sample says the scale, and a tight budget reduces each notebook's work", async () => {
  const corpus = outline(10_000, 10_000, 20_000); // 100 M characters
  const pilot = pilotOf({ model: { fixedMs: 20_000, perQueryMs: 5 }, population: 5_000, scale: 5, sampleChars: 20e6 });
  const { probes, lines, calls } = fakeProbes(corpus, pilot, 0.01);
  const plan = await planBudget(input({ budgetMinutes: 30, names: allNames, requestedJobs: 2 }), probes);
  assert.deepEqual(calls.documentPilotIds, [30], "01-02 are piloted on 30 documents");
  assert.deepEqual(calls.documentPilotCells, ["01 seams", "02 damage"], "the sampled cells they declare");
  assert.ok(
    lines.some((line) => /piloted in CPU time on a seeded sample of 20,000,000 of 100,000,000 characters/.test(line)),
  );
  assert.equal(typeof plan.parameters.querySample, "number", "a sample of the 5,000 queries");
  assert.ok((plan.parameters.querySample as number) >= 400, "the reduced work runs at least the 400 it was planned at");
  assert.equal(typeof plan.parameters.sample, "number", "01-02 read a document sample");
  assert.ok((plan.parameters.sample as number) < 10_000);
  assert.match(plan.plans["01"].note!, /seeded stratified sample of [\d,]+ of 10,000 documents/);
  // 01's estimate: a kernel start, a pass over the corpus and the sample read again, and its cells on the sample
  const sample = plan.parameters.sample as number;
  const expected01 = 8_000 + 20_000 * (1 + sample / 10_000) + 0.01 * 10_000 * sample;
  assert.ok(Math.abs(plan.plans["01"].estimatedMs! - expected01) < 1e-6);
  let reduced = 0;
  for (const prefix of ["03", "04", "05", "06", "07"]) {
    const p = plan.plans[prefix];
    if (!p || p.skipAll) continue;
    if (p.parameters !== undefined) {
      reduced++;
      assert.ok(
        declared[prefix].levels.some((level) => level.parameters === p.parameters),
        `${prefix}'s parameters are one of its declared work levels`,
      );
      assert.ok(p.note, `${prefix}'s page says what was reduced`);
    }
    assert.equal(p.timeLimitMs, notebookTimeLimitMs(p.estimatedMs!));
  }
  assert.ok(reduced > 0, "at least one notebook does less than its full work");
  const total = Object.values(plan.plans).reduce((sum, p) => sum + (p.estimatedMs ?? 0), 0);
  assert.ok(total / plan.jobs <= 30 * 60_000 * 1.5, "the notebooks' estimates, run in parallel, are near the budget");
});

test("a budget too small for even the least work is refused naming --budget", async () => {
  const corpus = outline(10_000, 10_000, 20_000);
  const pilot = pilotOf({
    model: { fixedMs: 200_000, perQueryMs: 50 },
    population: 5_000,
    scale: 5,
    sampleChars: 20e6,
  });
  const { probes } = fakeProbes(corpus, pilot);
  await assert.rejects(
    planBudget(input({ budgetMinutes: 1, names: allNames.slice(2) }), probes),
    (error: unknown) => error instanceof SeamlabError && /^--budget 1: too small for this corpus/.test(error.message),
  );
});

test("a kernel alone over --max-memory: no retrieval pilot, and the notebook is left out with a note", async () => {
  const corpus = outline(200, 5_000);
  const { probes, lines, calls } = fakeProbes(corpus, pilotOf());
  const maxBytes = kernelBytes(declared, "03", corpus.chars, 0) / 2;
  const plan = await planBudget(input({ maxBytes }), probes);
  assert.equal(calls.retrievalPilot, 0);
  assert.equal(lines[0], "every retrieval notebook's kernel alone is over --max-memory: no retrieval pilot.");
  assert.equal(plan.plans["03"].skipAll, true);
  assert.ok(plan.plans["03"].note);
  assert.equal(plan.parameters.querySample, undefined);
  assert.match(lines.at(-1)!, /no query sample to choose\.$/);
});

test("a corpus over 200 M characters is swept in each kernel's own thread, unless SEAMLAB_WORKERS says otherwise", async () => {
  const corpus = outline(30_000, 10_000, 60_000); // 300 M characters
  const pilot = pilotOf({ model: { fixedMs: 1_000, perQueryMs: 1 }, population: 2_000, scale: 15, sampleChars: 20e6 });
  const inThread = await planBudget(input({ budgetMinutes: 600, maxBytes: 64 * GB }), fakeProbes(corpus, pilot).probes);
  assert.equal(inThread.kernelWorkers, 0);
  const given = await planBudget(
    input({ budgetMinutes: 600, maxBytes: 64 * GB, workersEnv: "2" }),
    fakeProbes(corpus, pilot).probes,
  );
  assert.equal(given.kernelWorkers, undefined);
});
