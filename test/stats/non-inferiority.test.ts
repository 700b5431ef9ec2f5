import { test } from "node:test";
import assert from "node:assert/strict";
import { decideNonInferior } from "../../src/stats/non-inferiority";

const bits = (text: string) => Array.from(text, (c) => (c === "1" ? 1 : 0));
const repeat = (pattern: string, times: number) => pattern.repeat(times);

test("identical outcomes on 2,000 queries: the cheapest config is non-inferior and the verdict is decided", () => {
  const o = bits(repeat("1100", 500));
  const decision = decideNonInferior([
    { label: "big", cost: 3, outcomes: o },
    { label: "small", cost: 1, outcomes: o },
    { label: "mid", cost: 2, outcomes: o },
  ]);
  assert.equal(decision.verdict, "decided");
  assert.equal(decision.choice, 1);
  assert.ok(decision.choiceIsNonInferior);
  assert.deepEqual(decision.candidates, []);
  assert.equal(decision.queriesNeeded, null);
});

test("a cheap config that loses 10 points on 400 queries is shown worse and is not picked", () => {
  const cheap = bits(repeat("0", 40) + repeat("1", 160) + repeat("0", 200));
  const dear = bits(repeat("1", 200) + repeat("0", 200));
  const decision = decideNonInferior([
    { label: "cheap", cost: 1, outcomes: cheap },
    { label: "dear", cost: 2, outcomes: dear },
  ]);
  assert.equal(decision.configs[0].status, "worse");
  assert.ok(decision.configs[0].fromBest.low > 0.05);
  assert.equal(decision.verdict, "decided");
  assert.equal(decision.choice, 1);
});

test("the margin decides: 2 points lost on 2000 queries with few discordant pairs is fine at 3 points, not at 1", () => {
  // 40 queries only 'dear' hits, none only 'cheap' hits: cheap is 2 points down, and that is all it can be.
  const cheap = bits(repeat("0", 40) + repeat("1", 760) + repeat("0", 1200));
  const dear = bits(repeat("1", 800) + repeat("0", 1200));
  const items = [
    { label: "cheap", cost: 1, outcomes: cheap },
    { label: "dear", cost: 2, outcomes: dear },
  ];
  const wide = decideNonInferior(items, { margin: 0.03 });
  assert.equal(wide.choice, 0);
  assert.equal(wide.configs[0].status, "non-inferior");
  const tight = decideNonInferior(items, { margin: 0.01 });
  assert.equal(tight.choice, 1);
  assert.equal(tight.configs[0].status, "worse");
});

test("a cheaper config the data cannot place makes the verdict undecided, naming it and the queries needed", () => {
  // 300 queries; they disagree on 24, 13 to 11 for the dear one.
  const cheap = bits(repeat("1", 11) + repeat("0", 13) + repeat("1", 90) + repeat("0", 186));
  const dear = bits(repeat("0", 11) + repeat("1", 13) + repeat("1", 90) + repeat("0", 186));
  const decision = decideNonInferior([
    { label: "cheap", cost: 1, outcomes: cheap },
    { label: "dear", cost: 2, outcomes: dear },
  ]);
  assert.equal(decision.verdict, "undecided");
  assert.deepEqual(decision.candidates, [0]);
  assert.equal(decision.configs[0].status, "unclear");
  // Showing a 0.67-point loss within a 1-point margin, with 8% of queries discordant, takes thousands of queries.
  assert.ok((decision.queriesNeeded as number) > 3000, `${decision.queriesNeeded}`);
});

test("0 discordant of 40 queries cannot show a 1-point margin (Tango: ±8.8 points), only a 10-point one", () => {
  // The bootstrap of 40 agreeing queries is [0, 0]; the score interval is ±1.96²/(40 + 1.96²) = ±0.0876.
  const o = bits(repeat("1100", 10));
  const items = [
    { label: "dear", cost: 2, outcomes: o },
    { label: "cheap", cost: 1, outcomes: o },
  ];
  const tight = decideNonInferior(items);
  assert.equal(tight.configs[1].status, "unclear");
  assert.ok(Math.abs(tight.configs[1].fromBest.high - 0.0876) < 1e-4, `${tight.configs[1].fromBest.high}`);
  assert.equal(tight.verdict, "undecided");
  assert.deepEqual(tight.candidates, [1]);
  assert.equal(tight.choice, 0);
  // The rule itself decides once 1.96²/(n + 1.96²) < 0.01, i.e. n > 99 · 1.96² = 380.3: 381 queries in all (the
  // normal formula with one discordant query assumed in the 40 asked for 7.85 · 0.025 / 0.01² = 1,963).
  assert.equal(tight.queriesNeeded, 381);
  const wide = decideNonInferior(items, { margin: 0.1 });
  assert.equal(wide.configs[1].status, "non-inferior");
  assert.equal(wide.verdict, "decided");
  assert.equal(wide.choice, 1);
});

test("4 discordant queries of 76, all one way, are not shown worse: exact McNemar p = 0.125", () => {
  // 03's grid on state_of_the_union: the bootstrap's lower bound excluded 0 (a resample misses all 4 with
  // probability (72/76)^76 ≈ 1.6%, below the 2.5% tail), the exact test does not.
  const best = bits(repeat("1", 4) + repeat("1", 40) + repeat("0", 32));
  const other = bits(repeat("0", 4) + repeat("1", 40) + repeat("0", 32));
  const decision = decideNonInferior([
    { label: "cheap", cost: 1, outcomes: other },
    { label: "dear", cost: 2, outcomes: best },
  ]);
  const c = decision.configs[0];
  assert.equal(c.fromBest.mcnemarP, 0.125);
  assert.equal(c.status, "unclear");
  assert.equal(decision.verdict, "undecided");
  assert.deepEqual(decision.candidates, [0]);
});

test("8 discordant of 76, all one way, are shown worse: exact McNemar p = 0.008 and the CI above 0 agree", () => {
  const best = bits(repeat("1", 8) + repeat("1", 40) + repeat("0", 28));
  const other = bits(repeat("0", 8) + repeat("1", 40) + repeat("0", 28));
  const decision = decideNonInferior([
    { label: "cheap", cost: 1, outcomes: other },
    { label: "dear", cost: 2, outcomes: best },
  ]);
  assert.ok(decision.configs[0].fromBest.mcnemarP < 0.01);
  assert.ok(decision.configs[0].fromBest.low > 0);
  assert.equal(decision.configs[0].status, "worse");
  assert.equal(decision.verdict, "decided");
  assert.equal(decision.choice, 1);
});

test("a margin outside (0, 1) is refused with the flag named", () => {
  const o = bits("1010");
  assert.throws(() => decideNonInferior([{ label: "a", cost: 1, outcomes: o }], { margin: 0 }), /margin/);
  assert.throws(() => decideNonInferior([{ label: "a", cost: 1, outcomes: o }], { margin: 1.5 }), /margin/);
});
