import { test } from "node:test";
import assert from "node:assert/strict";
import { decideNonInferior } from "../../src/stats/non-inferiority";
import { compareProxy, curveKey, trustedProxy, type ProxyComparison } from "../../src/experiment/proxies";
import type { SweepCurve } from "../../src/experiment/sweep";

/** Outcomes of `n` queries: the first `hits` hit (the same queries in every config, so configs nest). */
const nested = (hits: number, n = 400) => Array.from({ length: n }, (_, i) => (i < hits ? 1 : 0));

/** A curve over `overlaps` whose configs hit the given numbers of 400 nested queries, decided by the paired rule. */
function curve(splitter: string, size: number, overlaps: number[], hits: number[]): SweepCurve {
  const items = overlaps.map((x, i) => ({ label: String(x), cost: i + 1, outcomes: nested(hits[i]) }));
  const decision = decideNonInferior(items);
  return {
    splitter,
    size,
    unit: "chars",
    k: 5,
    finalK: 5,
    reranker: "none",
    metric: "hitRate",
    points: overlaps.map((x, i) => ({ x, y: hits[i] / 400 })),
    decision,
  } as unknown as SweepCurve;
}

const OVERLAPS = [0, 50, 100, 200];

test("a proxy that rises where the labelled curve rises picks inside the labelled verdict's set", () => {
  // labelled: 0 and 50 are far below, 100 and 200 tie at the top (200 is not ruled out)
  const labelled = [curve("recursive", 500, OVERLAPS, [200, 240, 300, 300])];
  const proxy = [curve("recursive", 500, OVERLAPS, [100, 130, 180, 180])];
  const c = compareProxy(labelled, proxy);
  assert.equal(c.curves.length, 1);
  const only = c.curves[0];
  assert.equal(only.labelledPick, 100);
  assert.equal(only.proxyPick, 100);
  assert.deepEqual(only.labelledSet, [100, 200]);
  assert.ok(only.inSet);
  assert.equal(c.samePick, 1);
  assert.equal(c.nearPick, 1);
  assert.equal(c.statusAgreement, 1);
  assert.ok(c.tau > 0.8, `tau ${c.tau}`);
});

test("a proxy that wants no overlap where labels want the most is outside the set and far from the pick", () => {
  const labelled = [curve("recursive", 500, OVERLAPS, [200, 240, 280, 320])];
  const proxy = [curve("recursive", 500, OVERLAPS, [300, 260, 220, 180])];
  const c = compareProxy(labelled, proxy);
  const only = c.curves[0];
  assert.equal(only.labelledPick, 200);
  assert.equal(only.proxyPick, 0);
  assert.equal(only.steps, 3);
  assert.equal(only.inSet, false);
  assert.equal(c.nearPick, 0);
  assert.ok(c.tau < -0.8);
  // statuses: labelled calls 0, 50, 100 worse and 200 best; the proxy the reverse
  assert.equal(c.statusAgreement, 0.5);
});

test("curves are matched on splitter and size, and a proxy with no matching curve is refused", () => {
  const labelled = [
    curve("recursive", 500, OVERLAPS, [200, 240, 300, 300]),
    curve("window", 500, OVERLAPS, [1, 2, 3, 4]),
  ];
  const proxy = [curve("window", 500, OVERLAPS, [1, 2, 3, 4])];
  assert.equal(compareProxy(labelled, proxy).curves.length, 1);
  assert.equal(curveKey(labelled[1]), "window@500 k5");
  assert.throws(() => compareProxy(labelled, [curve("window", 1000, OVERLAPS, [1, 2, 3, 4])]), /no curve/);
  assert.throws(() => compareProxy(labelled, [curve("window", 500, [0, 50, 100, 300], [1, 2, 3, 4])]), /no curve/);
});

const summary = (tau: number, inSet: number, curves = 4) =>
  ({
    tau,
    inSet,
    informative: curves,
    informativeInSet: inSet,
    curves: Array.from({ length: curves }),
  }) as unknown as ProxyComparison;

test("the trusted proxy ranks configs and picks inside the set on 3 of 4 curves; others only rank", () => {
  const trust = trustedProxy([
    { source: "headers", comparison: summary(0.9, 2) },
    { source: "ict", comparison: summary(0.6, 3) },
    { source: "ict-kept", comparison: summary(0.4, 4) },
  ]);
  assert.equal(trust.trusted, "ict");
  assert.deepEqual(trust.ranksOnly, ["headers"]);
  const none = trustedProxy([{ source: "ict", comparison: summary(0.7, 1) }]);
  assert.equal(none.trusted, null);
  assert.deepEqual(none.ranksOnly, ["ict"]);
  // one curve: the pick must be inside
  assert.equal(trustedProxy([{ source: "ict", comparison: summary(0.7, 0, 1) }]).trusted, null);
  assert.equal(trustedProxy([{ source: "ict", comparison: summary(0.7, 1, 1) }]).trusted, "ict");
  // a labelled verdict that rules nothing out cannot test a pick: nobody is trusted on it
  const untested = { ...summary(0.9, 4), informative: 0, informativeInSet: 0 };
  assert.equal(trustedProxy([{ source: "ict", comparison: untested }]).trusted, null);
});

test("curves whose labelled verdict rules nothing out are counted apart", () => {
  // 40 nested queries: the labelled configs differ by a query or two, so none is shown worse
  const flatish = [curve("recursive", 500, OVERLAPS, [20, 21, 21, 22])];
  const c = compareProxy(flatish, [curve("recursive", 500, OVERLAPS, [300, 200, 100, 50])]);
  assert.equal(c.inSet, 1);
  assert.equal(c.informative, 0);
  assert.equal(c.informativeInSet, 0);
});
