import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../src/core/project";
import { decideNonInferior } from "../../src/stats/non-inferiority";
import { marginText, verdictCard, verdictHeadline, verdictText } from "../../src/experiment/verdict";
import { formatP } from "../../src/stats/format";

const bits = (text: string) => Array.from(text, (c) => (c === "1" ? 1 : 0));

/** 300 queries on which overlap 0 and 400 disagree 11 to 13: neither shown within 1 point nor shown worse. */
function undecided() {
  const cheap = bits("1".repeat(11) + "0".repeat(13) + "1".repeat(90) + "0".repeat(186));
  const dear = bits("0".repeat(11) + "1".repeat(13) + "1".repeat(90) + "0".repeat(186));
  const decision = decideNonInferior([
    { label: "0", cost: 1, outcomes: cheap },
    { label: "400", cost: 2, outcomes: dear },
  ]);
  return decision;
}

test("p-values never print as 0 and margins read as points", () => {
  assert.equal(formatP(0), "< 0.001");
  assert.equal(formatP(0.0042), "0.004");
  assert.equal(formatP(0.2912), "0.29");
  assert.equal(marginText(0.01), "1 point");
  assert.equal(marginText(0.025), "2.5 points");
  // --margin 0.0001 (points) printed "a 0 points margin": the margin keeps its own precision.
  assert.equal(marginText(0.0001 / 100), "0.0001 points");
  assert.equal(marginText(0.07), "7 points");
  assert.equal(marginText(1 / 300), "0.333333 points");
});

/** 200 queries on which 0 and 200 tie 14 wins to 14 losses: neither is shown within 1 point of the other. */
function tied() {
  const zero = bits("1".repeat(14) + "0".repeat(14) + "1".repeat(60) + "0".repeat(112));
  const dear = bits("0".repeat(14) + "1".repeat(14) + "1".repeat(60) + "0".repeat(112));
  return decideNonInferior([
    { label: "0", cost: 1, outcomes: zero },
    { label: "200", cost: 2, outcomes: dear },
  ]);
}

test("a tie no config is shown within the margin of leans, and never reads as a decided answer", () => {
  const decision = tied();
  assert.equal(decision.verdict, "leaning");
  assert.equal(decision.choice, 0);
  assert.equal(decision.choiceIsNonInferior, false);
  const name = (i: number) => `overlap ${i * 200}`;
  const card = verdictCard(decision, name, (i) => String(i * 200), " chars");
  assert.equal(card.value, "leaning: 0 chars");
  const needed = decision.queriesNeeded as number;
  assert.ok(needed > 200 && Number.isFinite(needed), `${needed}`);
  assert.equal(
    verdictHeadline(decision, name),
    `leaning: overlap 0 (not shown within 1 point; ~${needed.toLocaleString("en-US")} queries to settle)`,
  );
  const text = verdictText(decision, name);
  assert.doesNotMatch(text, /\*\*|Use /);
  assert.match(
    text,
    /^Leaning: overlap 0, not decided at a 1 point margin: the best is overlap 0 at 37\.0% on 200 queries/,
  );
  assert.match(text, /no setting is shown within 1 point of the best, overlap 0 included/);
  assert.match(
    text,
    /Not ruled out \(neither shown within 1 point of the best nor shown worse\): overlap 200 \(dearer, \+0\.0 points/,
  );
  assert.match(text, /queries in all would show overlap 0 within it .*\(this run has 200: [\d,]+ more\)\./);
  assert.match(text, /No setting is ruled out\./);
});

test("a leaning verdict names the configs it rules out", () => {
  // 400 queries: 200 and 400 tie 14 wins to 14 losses; 0 misses 30 more that 200 hits (7.5 points down).
  const rest = "0".repeat(272);
  const decision = decideNonInferior([
    { label: "0", cost: 1, outcomes: bits("1".repeat(14) + "0".repeat(44) + "1".repeat(70) + rest) },
    { label: "200", cost: 2, outcomes: bits("1".repeat(14) + "0".repeat(14) + "1".repeat(100) + rest) },
    { label: "400", cost: 3, outcomes: bits("0".repeat(14) + "1".repeat(14) + "1".repeat(100) + rest) },
  ]);
  assert.equal(decision.verdict, "leaning");
  assert.equal(decision.choice, 1);
  const text = verdictText(decision, (i) => `overlap ${i * 200}`);
  assert.match(
    text,
    /Ruled out, shown worse than the best \(paired CI above 0, McNemar p < 0\.05\): overlap 0 \(−7\.5 points/,
  );
  assert.match(
    verdictHeadline(decision, (i) => String(i * 200)),
    /^leaning: 200 \(not shown within 1 point; ~\d[\d,]* queries to settle\)$/,
  );
});

test("an undecided card gives the range of candidates as its value and the queries needed in its note", () => {
  const decision = undecided();
  const name = (i: number) => `overlap ${i === 0 ? 0 : 400}`;
  const card = verdictCard(decision, name, (i) => (i === 0 ? "0" : "400"), " chars");
  assert.equal(card.value, "undecided: 0 or 400 chars");
  assert.match(card.note, /^Undecided at a 1 point margin: the best is overlap 400 at 34\.3% on 300 queries/);
  // 13 to 11 of 300 (0.67 points): Tango's upper bound at the same rates is below 1 point from 7,281 queries.
  assert.match(
    card.note,
    /About 7,281 queries in all would decide it if the rates of disagreement seen here held \(this run has 300: 6,981 more\)\./,
  );
  assert.ok(!card.note.includes("**"));
  assert.match(verdictText(decision, name), /^\*\*Undecided\*\*/);
});

test("a decided card's value is the pick and its note the evidence against the margin", () => {
  // 800 agreeing queries: two configs shown within a point of each other (Tango's bound: 0.48 points).
  const o = bits("1100".repeat(200));
  const decision = decideNonInferior([
    { label: "0", cost: 1, outcomes: o },
    { label: "200", cost: 2, outcomes: o },
  ]);
  const card = verdictCard(
    decision,
    (i) => `overlap ${i * 200}`,
    (i) => String(i * 200),
    " chars",
  );
  assert.equal(card.value, "0 chars");
  assert.match(
    card.note,
    /^Use overlap 0: the cheapest setting within 1 point of the best \(paired 95% CI of best − it: \[\+0\.0, \+0\.5\] points/,
  );
});

test("a config shown worse is named with both halves of the rule: CI above 0 and the exact McNemar p", () => {
  // 10 queries only the dear one hits, none the reverse, of 100: exact McNemar p = 2/1024.
  const cheap = bits("0".repeat(10) + "1".repeat(40) + "0".repeat(50));
  const dear = bits("1".repeat(50) + "0".repeat(50));
  const decision = decideNonInferior([
    { label: "0", cost: 1, outcomes: cheap },
    { label: "400", cost: 2, outcomes: dear },
  ]);
  assert.equal(decision.configs[0].status, "worse");
  const text = verdictText(decision, (i) => `overlap ${i * 400}`);
  assert.match(text, /Shown worse than the best \(paired CI above 0, McNemar p < 0\.05\): overlap 0 \(−10\.0 points/);
  assert.match(text, /McNemar p = 0\.002\)/);
});

test("queries needed read as a count in all with the more this run lacks, or past the plan's cap when none would do", () => {
  const decision = undecided();
  const name = (i: number) => `overlap ${i === 0 ? 0 : 400}`;
  assert.match(verdictHeadline({ ...decision, queriesNeeded: 12345 }, name), /\(need ~12,345 queries, 12,045 more\)$/);
  assert.match(verdictHeadline({ ...decision, queriesNeeded: 300 }, name), /\(need ~300 queries\)$/);
  assert.match(
    verdictHeadline({ ...decision, queriesNeeded: Infinity }, name),
    /\(need more than 10,000,000 queries\)$/,
  );
  assert.match(
    verdictText({ ...decision, queriesNeeded: Infinity }, name),
    /No number of queries up to 10,000,000 would decide it at the rates of disagreement seen here \(this run has 300\)\./,
  );
});

test("a choice a cheaper config sits within the margin of leans on the grid, not on more queries", () => {
  // 4,000 queries: 200 misses 24 that 400 hits (0.6 points), 0 misses 24 more (1.2 points from 400, 0.6 from 200).
  const rest = "1".repeat(1000) + "0".repeat(2952);
  const decision = decideNonInferior([
    { label: "0", cost: 1, outcomes: bits("0".repeat(48) + rest) },
    { label: "200", cost: 2, outcomes: bits("0".repeat(24) + "1".repeat(24) + rest) },
    { label: "400", cost: 3, outcomes: bits("1".repeat(48) + rest) },
  ]);
  assert.equal(decision.configs[1].status, "non-inferior");
  assert.equal(decision.configs[0].status, "worse");
  assert.equal(decision.verdict, "leaning");
  assert.deepEqual(decision.withinChoice, [0]);
  assert.equal(decision.queriesNeeded, null);
  const name = (i: number) => `overlap ${i * 200}`;
  assert.equal(
    verdictHeadline(decision, name),
    "leaning: overlap 200 (overlap 0 is within 1 point of it; the grid decides, not more queries)",
  );
  const text = verdictText(decision, name);
  assert.match(text, /^Leaning: overlap 200, not decided at a 1 point margin/);
  assert.match(text, /a grid of overlap 0 and overlap 200 alone would pick overlap 0/);
  assert.match(text, /Ruled out, shown worse than the best .*: overlap 0 \(−1\.2 points/);
  assert.doesNotMatch(text, /\*\*/);
});

test("on the real fastify-docs sweep the verdict leans on overlap 50, listing five dearer settings in short", () => {
  const fixture = JSON.parse(
    readFileSync(join(projectRoot(), "test", "fixtures", "verdict", "fastify-docs-headers.json"), "utf8"),
  ) as { configs: { overlap: number; storageBytes: number; hits: string }[] };
  const decision = decideNonInferior(
    fixture.configs.map((c) => ({ label: String(c.overlap), cost: c.storageBytes, outcomes: bits(c.hits) })),
  );
  const name = (i: number) => `overlap ${fixture.configs[i].overlap}`;
  assert.equal(decision.verdict, "leaning");
  assert.equal(name(decision.choice), "overlap 50");
  const text = verdictText(decision, name);
  assert.match(
    text,
    /Not ruled out .*: overlap 100, overlap 150, overlap 200, overlap 300, overlap 400 \(all dearer; /,
  );
  assert.match(text, /Ruled out, shown worse than the best .*: overlap 0 \(/);
  assert.match(verdictCard(decision, name, (i) => String(fixture.configs[i].overlap)).value, /^leaning: 50$/);
});
