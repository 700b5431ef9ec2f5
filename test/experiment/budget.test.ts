import { test } from "node:test";
import assert from "node:assert/strict";
import { SeamlabError } from "../../src/core/errors";
import {
  budgetMinutesText,
  busyCoresSlowdown,
  chooseQueryBudget,
  costModelFromPilot,
  durationText,
  estimateRunMs,
  extrapolateCost,
  extrapolateModel,
  parseBudgetMinutes,
  type BudgetPlan,
} from "../../src/experiment/budget";
import { pilotConfigs, pilotSweepCost, splitCount } from "../../src/experiment/budget-pilot";
import { sweepConfigs } from "../../src/experiment/sweep";
import { chooseReportBudget } from "../../src/report/budget";
import type { DeclaredWork } from "../../src/report/plan/declared-work";
import { loadCorpusAndQueries } from "../../src/retrieval/inputs";
import { fastifyGuides } from "../helpers/corpora";

test("--budget takes minutes above 0 and at most a week, and names itself when refused", () => {
  assert.equal(parseBudgetMinutes(undefined), undefined);
  assert.equal(parseBudgetMinutes("5"), 5);
  assert.equal(parseBudgetMinutes("0.5"), 0.5);
  for (const bad of ["0", "-1", "abc", "1e3", "20000", ""]) {
    assert.throws(
      () => parseBudgetMinutes(bad),
      (e: unknown) => e instanceof SeamlabError && /^--budget must be a number of minutes/.test(e.message),
      bad,
    );
  }
});

test("the pilot's rows split into a fixed part per split and a part per query", () => {
  const model = costModelFromPilot(
    [
      { rowMs: 3000, queryMs: 400 },
      { rowMs: 5000, queryMs: 600 },
    ],
    200,
  );
  assert.equal(model.perQueryMs, 2.5); // (400 + 600) / 2 / 200
  assert.equal(model.fixedMs, 3500); // mean of 2600 and 4400
  assert.equal(estimateRunMs(model, { splits: 4, configs: 8 }, 100), 4 * 3500 + 8 * 2.5 * 100);
  // two at a time on busy cores: each runs busyCoresSlowdown slower; one beside other work, too
  const serial = 4 * 3500 + 8 * 2.5 * 100;
  assert.equal(estimateRunMs(model, { splits: 4, configs: 8, parallel: 2 }, 100), (serial * busyCoresSlowdown) / 2);
  assert.equal(estimateRunMs(model, { splits: 4, configs: 8, besideOthers: true }, 100), serial * busyCoresSlowdown);
  assert.ok(busyCoresSlowdown > 1 && busyCoresSlowdown < 2);
});

const plan = (over: Partial<BudgetPlan> = {}): BudgetPlan => ({
  budgetMs: 60_000,
  spentMs: 5_000,
  splits: 10,
  configs: 10,
  parallel: 1,
  model: { fixedMs: 2_000, perQueryMs: 1 },
  population: 4212,
  ...over,
});

test("the budget picks the largest query sample whose estimate fits what the pilot left, and says so", () => {
  // 55 s left; splitting and indexing 10 configs takes 20 s; each query costs 10 ms over the 10 configs: 3,500 fit
  const choice = chooseQueryBudget(plan());
  assert.equal(choice.queries, 3500);
  assert.equal(choice.estimatedMs, 55_000);
  assert.equal(choice.fits, true);
  assert.match(choice.line, /^budget 1 min: 3,500 of 4,212 queries, estimated 0\.9 min \(10 configs: 2\.0 s per split/);
  // every query fits: all of them
  const all = chooseQueryBudget(plan({ population: 1000 }));
  assert.equal(all.queries, 1000);
  assert.match(all.line, /^budget 1 min: all 1,000 queries, estimated 0\.5 min/);
  // two at a time: 2 / busyCoresSlowdown times the queries fit (up to the population), and the line says so
  const two = chooseQueryBudget(plan({ parallel: 2 }));
  assert.equal(two.queries, 4212);
  assert.match(two.line, /10 configs, 2 at a time, each 1\.3x slower on busy cores:/);
  // (55,000 - 20,000 × 1.3 / 2) / (10 × 1 × 1.3 / 2) = 6,461 fit at parallel 2; one at a time beside other work,
  // (55,000 - 20,000 × 1.3) / (10 × 1.3) = 2,230
  assert.equal(chooseQueryBudget(plan({ besideOthers: true })).queries, 2230);
  // a larger budget never chooses fewer queries
  let last = 0;
  for (let minutes = 0.5; minutes <= 3; minutes += 0.25) {
    const q = chooseQueryBudget(plan({ budgetMs: minutes * 60_000 })).queries;
    assert.ok(q >= last, `${minutes} min: ${q} < ${last}`);
    last = q;
  }
});

test("a budget the fixed part alone overruns runs the fewest queries and says what to change", () => {
  const choice = chooseQueryBudget(plan({ budgetMs: 12_000 }));
  assert.equal(choice.queries, 100);
  assert.equal(choice.fits, false);
  assert.match(
    choice.line,
    /does not fit; running 100 of 4,212 queries.*splitting and indexing alone take about 0\.3 min/,
  );
  assert.match(
    choice.line,
    /Sweep fewer configs or raise --budget\. The least run \(100 queries\) needs about 0\.4 min with the pilot: --budget 0\.44 or more\.$/,
  );
});

test("the report's budget models the retrieval notebooks that run, no faster than the longest alone", () => {
  // notebooks as their metadata would declare them: 01 reads a document sample, 03 and 04 have work levels (the first
  // is the full work), 08 declares nothing
  const work = (splits: number, configs: number): DeclaredWork => ({
    priority: 3,
    kernelBytesPerChar: 1,
    kernelFixedBytes: 0,
    levels: [{ parameters: {}, skip: [], splits, configs, ran: "all" }],
  });
  const declared = {
    "01": {
      ...work(0, 0),
      levels: [],
      pilot: { kind: "seams" as const, splitters: ["window"], size: 1000, overlap: 0 },
    },
    "03": work(44, 37),
    "04": work(10, 35),
  };
  const base = { budgetMinutes: 5, jobs: 2, model: { fixedMs: 1_000, perQueryMs: 0.5 }, spentMs: 10_000, declared };
  const choice = chooseReportBudget({
    ...base,
    notebooks: ["01-seams.ipynb", "03-overlap-sweep.ipynb", "04-topk-redundancy.ipynb", "08-extra.ipynb"],
    population: 5000,
  });
  assert.deepEqual(choice.modelled, ["03-overlap-sweep.ipynb", "04-topk-redundancy.ipynb"]);
  assert.match(choice.line, /^budget 5 min for notebooks 03, 04: /);
  // 01's sampled cells have their own budget line (chooseDocumentBudget); a notebook seamlab does not know is in no
  // estimate
  assert.match(choice.line, / Notebooks 08 are not in the estimate\.$/);
  // 290 s left; 03 alone (44 splits, 37 configs) bounds it: (290,000 − 44,000) / (37 × 0.5) = 13,297 > 5,000
  assert.equal(choice.queries, 5000);
  const tight = chooseReportBudget({
    ...base,
    budgetMinutes: 1.5,
    notebooks: ["03-overlap-sweep.ipynb"],
    population: 5000,
  });
  // 80 s left: (80,000 − 44,000) / 18.5 = 1,945
  assert.equal(tight.queries, 1945);
});

test("the pilot times the sweep's two end configs on at most 200 queries (fake clock)", async () => {
  const inputs = loadCorpusAndQueries({ corpus: fastifyGuides, querySample: { kind: "all" } });
  const configs = sweepConfigs({ splitter: "window", size: 400, overlaps: [0, 100, 200] });
  assert.deepEqual(
    pilotConfigs(configs).map((c) => c.splitter.overlap),
    [0, 200],
  );
  assert.equal(splitCount(configs), 3);
  let clock = 0;
  const pilot = await pilotSweepCost(inputs, configs, { now: () => (clock += 1_000) });
  assert.equal(pilot.pilotConfigs, 2);
  assert.equal(pilot.pilotQueries, Math.min(200, inputs.queries.length));
  // clock reads: start, then per config before and after its row and its queries (8), then the end: 9 reads
  assert.equal(pilot.spentMs, 9_000);
  assert.ok(pilot.model.fixedMs >= 0 && pilot.model.fixedMs <= 1_000);
  assert.ok(pilot.model.perQueryMs >= 0);
});

test("the pilot can time what the first config pays once for the sweep apart from its splits (fake clock)", async () => {
  const inputs = loadCorpusAndQueries({ corpus: fastifyGuides, querySample: { kind: "all" } });
  const configs = sweepConfigs({ splitter: "window", size: 400, overlaps: [0, 200] });
  // reads: start; each config's row (before, after) and its queries' evaluation (before, after); the first
  // config's row again, warm (before, after); the end
  const times = [0, 0, 5_000, 5_000, 5_000, 5_000, 6_000, 6_000, 6_000, 6_000, 7_000, 7_000];
  let read = 0;
  const pilot = await pilotSweepCost(inputs, configs, { now: () => times[read++], separateSetup: true });
  assert.equal(read, times.length);
  assert.equal(pilot.setupMs, 4_000); // 5 s cold, 1 s warm
  // the queries' evaluations took no time on the pilot's clock: nothing per query (the wall clock is not read; it was,
  // and a CPU-time pilot on a busy machine counted the waiting as query time)
  assert.equal(pilot.model.perQueryMs, 0);
  // per split: the warm rows (1 s each) less their queries, not the cold 5 s the first row took
  assert.ok(pilot.model.fixedMs <= 1_000, `${pilot.model.fixedMs}`);
  const plain = await pilotSweepCost(inputs, configs, {
    now: (() =>
      (
        (t: number) => () =>
          (t += 1_000)
      )(0))(),
  });
  assert.equal(plain.setupMs, 0); // without separateSetup, as `seamlab sweep --budget` has it
});

test("the pilot measures damage and tokens on the inputs' document sample, as the sweep it plans will", async () => {
  const inputs = loadCorpusAndQueries({ corpus: fastifyGuides, querySample: { kind: "all" } });
  const configs = sweepConfigs({ splitter: "window", size: 400, overlaps: [0, 200] });
  const docs = inputs.docs;
  const sample = { indexes: [0, 1], strata: ["a", "a"], population: docs.length, description: "two documents" };
  const pilot = await pilotSweepCost({ docs, queries: inputs.queries, sample }, configs);
  assert.equal(pilot.pilotConfigs, 2);
  // A sample naming a document the corpus does not have fails where the rows read it: the sample reached them.
  const outside = { ...sample, indexes: [0, docs.length] };
  await assert.rejects(pilotSweepCost({ docs, queries: inputs.queries, sample: outside }, configs), /outside/);
});

test("a cost piloted on two samples grows along the line through both, not in proportion to the larger", () => {
  // synthetic: 1 s that does not grow with the text (a thread's start, a fixed-size row sample) + 50 ms per M chars
  const cost = (chars: number) => 1000 + (50 * chars) / 1e6;
  const small = { chars: 5e6, ms: cost(5e6) };
  const large = { chars: 20e6, ms: cost(20e6) };
  assert.equal(extrapolateCost(small, large, 1e9), cost(1e9)); // 51 s
  // the proportional scaling of the larger sample (the estimate before) counted the fixed second 50 times: 100 s
  assert.equal((large.ms * 1e9) / large.chars, 100_000);
  // never above that scaling, never below what the larger sample measured, and within the sample: proportional
  assert.equal(extrapolateCost({ chars: 5e6, ms: 100 }, large, 1e9), 100_000); // steeper than proportional: capped
  assert.equal(extrapolateCost({ chars: 5e6, ms: 3000 }, large, 1e9), large.ms); // noise gave a falling line
  assert.equal(extrapolateCost(small, large, 10e6), (large.ms * 10e6) / 20e6);
  assert.equal(extrapolateCost(large, large, 1e9), 100_000); // one sample only: proportional
  const model = extrapolateModel(
    { chars: 5e6, model: { fixedMs: cost(5e6), perQueryMs: 0.25 } },
    { chars: 20e6, model: { fixedMs: cost(20e6), perQueryMs: 1 } },
    1e9,
  );
  assert.deepEqual(model, { fixedMs: 51_000, perQueryMs: 50 }); // per query: 0.05 ms per M chars, no fixed part
});

test("a tiny --budget is printed at its own precision, with the run's time in seconds or ms and the least budget it needs", () => {
  // 30 queries, two configs: 100 ms to split and index, 6 ms of queries, after a 300 ms pilot
  const tiny = {
    budgetMs: 0.001 * 60_000,
    spentMs: 300,
    splits: 2,
    configs: 2,
    parallel: 1,
    model: { fixedMs: 50, perQueryMs: 0.1 },
    population: 30,
  };
  const choice = chooseQueryBudget(tiny);
  assert.equal(choice.fits, false);
  assert.match(choice.line, /^budget 0\.001 min: does not fit; running all 30 queries, estimated 106 ms: /);
  assert.match(choice.line, /splitting and indexing alone take about 100 ms/);
  assert.match(
    choice.line,
    /The least run \(30 queries\) needs about 406 ms with the pilot: --budget 0\.0068 or more\.$/,
  );
  // the suggested budget holds the least run, and one just under it would not
  assert.equal(chooseQueryBudget({ ...tiny, budgetMs: 0.0068 * 60_000 }).fits, true);
  assert.equal(chooseQueryBudget({ ...tiny, budgetMs: 0.0067 * 60_000 }).fits, false);
  assert.equal(budgetMinutesText(14), "14");
  assert.equal(budgetMinutesText(2.345), "2.35");
  assert.equal(durationText(2_340), "2.3 s");
  assert.equal(durationText(54_000), "0.9 min");
});
