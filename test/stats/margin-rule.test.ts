import { test } from "node:test";
import assert from "node:assert/strict";
import {
  MAX_PLANNED_QUERIES,
  marginStatus,
  plannedStatus,
  queriesToDecide,
  scaledDiscordant,
} from "../../src/stats/margin-rule";
import { mcnemarExactP } from "../../src/stats/paired";
import { tangoInterval, zOfLevel } from "../../src/stats/paired-score";

/** A difference from the best whose CI is Tango's (the bootstrap inside it), as decideNonInferior would give it. */
function observed(wins: number, losses: number, queries: number) {
  const { low, high } = tangoInterval(wins, losses, queries);
  return { diff: (wins - losses) / queries, low, high, wins, losses, mcnemarP: mcnemarExactP(wins, losses) };
}

/** What the old normal-approximation plan (95% confidence, 80% power, one discordant query at least) gave. */
function normalPlan(wins: number, losses: number, queries: number, margin: number): number {
  const zPlan = 1.959963984540054 + 0.8416212335729143;
  const diff = (wins - losses) / queries;
  const variance = Math.max((wins + losses) / queries - diff * diff, 1 / queries);
  const needed = (gap: number) => (gap > 0 ? Math.ceil((zPlan * zPlan * variance) / (gap * gap)) : Infinity);
  return Math.min(needed(margin - diff), needed(diff));
}

const decides = (d: ReturnType<typeof observed>, queries: number, n: number, margin = 0.01) =>
  plannedStatus(d, queries, n, margin) !== "unclear";

test("40 agreeing queries need 381 in all for a 1-point margin, where the normal plan asked for 1,963", () => {
  const d = observed(0, 0, 40);
  assert.equal(marginStatus(d, 0.01), "unclear");
  // By hand: Tango's bound with no discordant query is z²/(n + z²) < 0.01 exactly when n > 99 z² = 380.28.
  const z = zOfLevel(0.95);
  assert.ok(99 * z * z > 380 && 99 * z * z < 381);
  assert.equal(queriesToDecide(d, 40, 0.01), 381);
  assert.equal(normalPlan(0, 0, 40, 0.01), 1963);
  assert.ok(tangoInterval(0, 0, 381).high < 0.01 && tangoInterval(0, 0, 380).high >= 0.01);
});

test("where the normal plan under-plans: 300 agreeing queries (it asked for 262, fewer than the run had), 1 of 300", () => {
  assert.equal(normalPlan(0, 0, 300, 0.01), 262);
  assert.equal(queriesToDecide(observed(0, 0, 300), 300, 0.01), 381);
  // One discordant query of 300 (a third of a point): the rule needs 856, the normal plan said 589.
  assert.equal(normalPlan(1, 0, 300, 0.01), 589);
  const one = queriesToDecide(observed(1, 0, 300), 300, 0.01);
  assert.equal(one, 856);
  assert.ok(decides(observed(1, 0, 300), 300, 856) && !decides(observed(1, 0, 300), 300, 855));
});

test("4 of 76 discordant, all one way, are shown worse from 105 queries: 6 one way is the fewest with exact p < 0.05", () => {
  // By hand: all-one-way counts k give p = 2/2^k, 0.0625 at 5 and 0.031 at 6; 4n/76 rounds to 6 from n = 104.5 up.
  const d = observed(4, 0, 76);
  assert.equal(d.mcnemarP, 0.125);
  assert.deepEqual(scaledDiscordant(d, 76, 105), { wins: 6, losses: 0 });
  assert.deepEqual(scaledDiscordant(d, 76, 104), { wins: 5, losses: 0 });
  assert.equal(queriesToDecide(d, 76, 0.01), 105);
  assert.equal(plannedStatus(d, 76, 105, 0.01), "worse");
  assert.equal(plannedStatus(d, 76, 104, 0.01), "unclear");
  assert.equal(normalPlan(4, 0, 76, 0.01), 142);
});

test("at the planned count the rule decides and one query fewer it does not", () => {
  for (const [wins, losses, queries] of [
    [22, 18, 1000],
    [13, 11, 300],
    [12, 12, 500],
    [20, 10, 1000],
    [6, 2, 100],
    [2, 1, 300],
  ]) {
    const d = observed(wins, losses, queries);
    assert.equal(marginStatus(d, 0.01), "unclear", `${wins}/${losses}/${queries}`);
    const n = queriesToDecide(d, queries, 0.01);
    assert.ok(Number.isFinite(n) && n > queries, `${wins}/${losses}/${queries}: ${n}`);
    assert.ok(decides(d, queries, n) && !decides(d, queries, n - 1), `${wins}/${losses}/${queries}: ${n}`);
  }
});

test("at the observed count the plan sees the observed verdict, and a decided difference needs no more queries", () => {
  const worse = observed(30, 10, 1000);
  assert.equal(marginStatus(worse, 0.01), "worse");
  assert.equal(plannedStatus(worse, 1000, 1000, 0.01), "worse");
  assert.equal(queriesToDecide(worse, 1000, 0.01), 1000);
  // A bootstrap bound wider than Tango's (the best re-picked per replicate) is the observed CI at n = queries.
  const wide = { ...observed(12, 12, 500), high: 0.05 };
  assert.equal(plannedStatus(wide, 500, 500, 0.04), "unclear");
  assert.equal(plannedStatus({ ...wide, high: 0.039 }, 500, 500, 0.04), "non-inferior");
  // ... and shrinks as 1/√n beyond: it asks for more queries than Tango's alone.
  assert.ok(queriesToDecide(wide, 500, 0.01) > queriesToDecide(observed(12, 12, 500), 500, 0.01));
});

test("more discordance in the favourable direction never needs more queries", () => {
  for (const queries of [100, 300, 1000]) {
    for (let losses = 0; losses <= 20; losses++) {
      for (let wins = 0; wins <= 40; wins++) {
        // At or beyond the margin only "worse" can be shown: one more query the best wins never needs more.
        if ((wins - losses) / queries >= 0.01) {
          const more = queriesToDecide(observed(wins + 1, losses, queries), queries, 0.01);
          assert.ok(more <= queriesToDecide(observed(wins, losses, queries), queries, 0.01), `${wins}/${losses}`);
        }
        // At or below 0 only "non-inferior" can be: one more query the config wins never needs more.
        if (wins <= losses) {
          const more = queriesToDecide(observed(wins, losses + 1, queries), queries, 0.01);
          assert.ok(more <= queriesToDecide(observed(wins, losses, queries), queries, 0.01), `${wins}/${losses}`);
        }
      }
    }
  }
});

test("a difference at 0 or at the margin is still decided by the other side; only the cap leaves no number", () => {
  // At 0 "worse" can never be shown, but the CI closes in below the margin; at the margin the reverse.
  assert.equal(queriesToDecide(observed(12, 12, 500), 500, 0.01), 1914);
  assert.equal(queriesToDecide(observed(250, 249, 1000), 1000, 0.001), 1918626);
  // Half a margin of 0.1 point from both sides with every query discordant: about 15 million, past the cap.
  assert.equal(queriesToDecide(observed(1000, 999, 2000), 2000, 0.001), Infinity);
  assert.equal(queriesToDecide(observed(1000, 999, 2000), 2000, 0.002), 1706455);
  assert.equal(queriesToDecide(observed(0, 0, MAX_PLANNED_QUERIES), MAX_PLANNED_QUERIES, 0.01), Infinity);
  assert.equal(queriesToDecide(observed(0, 0, 40), 0, 0.01), Infinity);
});

test("scaled discordant counts round half up but never sum past the queries", () => {
  assert.deepEqual(scaledDiscordant({ wins: 1, losses: 1 }, 2, 3), { wins: 1, losses: 2 });
  assert.deepEqual(scaledDiscordant({ wins: 3, losses: 1 }, 40, 400), { wins: 30, losses: 10 });
});
