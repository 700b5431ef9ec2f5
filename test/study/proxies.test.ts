import { test } from "node:test";
import assert from "node:assert/strict";
import { decideNonInferior } from "../../src/stats/non-inferiority";
import { compareProxy, ICT_SETS_NO_OVERLAP, trustedProxy } from "../../src/experiment/proxies";
import { sourceRecommendationText } from "../../src/study/query-sources";
import { variantRows, type CorpusValidation } from "../../src/study/query-validation";
import type { SweepCurve } from "../../src/experiment/sweep";
import { proxyCaption, proxyFinding, proxyRows, type ProxyCheck } from "../../src/study/proxies";

const OVERLAPS = [0, 100, 200, 400];

/** A curve whose configs hit the first hits[i] of n queries (nested), decided by the paired rule. */
function curve(hits: number[], n = 400): SweepCurve {
  const items = OVERLAPS.map((x, i) => ({
    label: String(x),
    cost: i + 1,
    outcomes: Array.from({ length: n }, (_, q) => (q < hits[i] ? 1 : 0)),
  }));
  return {
    splitter: "recursive",
    size: 1000,
    unit: "chars",
    k: 5,
    finalK: 5,
    reranker: "none",
    metric: "hitRate",
    points: OVERLAPS.map((x, i) => ({ x, y: hits[i] / n })),
    decision: decideNonInferior(items),
  } as unknown as SweepCurve;
}

function check(labelled: number[], proxies: Record<string, number[]>, missing: string[] = [], n = 400): ProxyCheck {
  const truth = [curve(labelled, n)];
  const results = Object.entries(proxies).map(([source, hits]) => ({
    source: source as "headers" | "ict",
    label: `${source} queries`,
    queries: 400,
    comparison: compareProxy(truth, [curve(hits, n)]),
  }));
  return {
    corpus: "docs",
    spec: { splitter: "recursive", size: 1000, overlaps: OVERLAPS, k: 5 },
    labelled: { label: "400 labelled queries (q.csv)", queries: 400, curves: truth },
    proxies: results,
    missing: missing.map((source) => ({ source, reason: "no ## or ### headings" })),
    trust: trustedProxy(results),
  };
}

test("a proxy that rises and levels off where the labels do is trusted, and the finding says so", () => {
  // labelled: 0 is far below, 100..400 tie; ict follows that shape, headers peak at 400 after a long climb
  const c = check([200, 300, 300, 300], { ict: [100, 180, 180, 180], headers: [100, 120, 140, 200] });
  assert.equal(c.trust.trusted, "ict");
  const rows = proxyRows(c);
  assert.equal(rows.length, 2);
  const ict = rows.find((r) => r.proxy === "ict")!;
  assert.equal(ict.trust, "trusted");
  assert.equal(ict["pick inside the set"], "yes");
  assert.equal(ict["labelled verdict's set"], "100, 200, 400");
  assert.equal(ict["pick: labelled → proxy"], "100 → 100");
  const finding = proxyFinding(c);
  assert.match(finding, /Trust ict on this corpus/);
  assert.match(finding, /does not rule out 100, 200, 400\./);
  assert.match(finding, /Rule: A proxy is trusted/);
  assert.match(proxyCaption(c), /recursive at 1000 chars, overlaps 0, 100, 200, 400/);
});

test("a proxy picking an overlap the labels rule out ranks configs only and is not trusted", () => {
  // 4,000 queries: the labels show every overlap below 400 worse; the proxy rises in the same order but is within a
  // point of its best from 100 on, so it picks 100, which the labels rule out
  const c = check([1000, 2000, 3000, 4000], { ict: [3000, 3990, 3995, 4000] }, [], 4000);
  assert.equal(c.proxies[0].comparison.curves[0].proxyPick, 100);
  assert.deepEqual(c.proxies[0].comparison.curves[0].labelledSet, [400]);
  assert.equal(c.trust.trusted, null);
  assert.deepEqual(c.trust.ranksOnly, ["ict"]);
  const row = proxyRows(c)[0];
  assert.equal(row.trust, "ranks only");
  assert.equal(row["pick inside the set"], "no");
  assert.match(proxyFinding(c), /ict ranks configs like the labelled questions but does not set the overlap/);
});

test("flat labelled hit rates say no proxy can be checked, and a missing proxy gets its own row", () => {
  const c = check([300, 300, 300, 300], { ict: [100, 150, 180, 190] }, ["headers"]);
  const finding = proxyFinding(c);
  assert.match(finding, /cannot tell overlaps apart and no proxy can be checked on this grid/);
  assert.match(finding, /Not available: headers\./);
  const rows = proxyRows(c);
  assert.equal(rows[1].proxy, "headers");
  assert.match(String(rows[1].trust), /^not available: no ## or ### headings/);
  assert.equal(rows[0]["Kendall tau"], "n/a");
});

test("every ICT verdict of the by-source section says ICT ranks configs but does not set the overlap", () => {
  type Sweeps = Parameters<typeof sourceRecommendationText>[0]["sweeps"];
  const sweep = (source: string) =>
    ({
      source,
      inputs: { queryLabel: `300 ${source} queries` },
      result: { curves: [{ points: [{ x: 100, y: 0.5 }] }] },
      recommendation: { overlap: 100, verdict: "decided" },
    }) as unknown as Sweeps[number];
  const withIct = sourceRecommendationText({ sweeps: [sweep("headers"), sweep("ict")], missing: [] }, 5);
  assert.ok(withIct.endsWith(ICT_SETS_NO_OVERLAP), withIct);
  assert.match(ICT_SETS_NO_OVERLAP, /^ICT ranks configs but does not set the overlap/);
  const headersOnly = sourceRecommendationText({ sweeps: [sweep("headers")], missing: [] }, 5);
  assert.ok(!headersOnly.includes("ICT ranks configs"), headersOnly);
});

test("the variant table counts curves over the labelled corpora and keeps generated corpora apart", () => {
  const truth = [curve([200, 300, 300, 300])];
  const near = compareProxy(truth, [curve([100, 180, 180, 180])]); // picks 100: the labelled pick
  const far = compareProxy(truth, [curve([100, 150, 200, 300])]); // picks 400: two steps off, not ruled out
  const corpus = (name: string, kind: string, check: typeof near) =>
    ({
      corpus: name,
      kind,
      proxies: [{ source: "ict", tau: check.tau, check }],
    }) as unknown as CorpusValidation;
  const rows = variantRows([
    corpus("a", "Chroma", near),
    corpus("b", "Chroma", far),
    corpus("facts/x", "generated: x", near),
  ]);
  assert.equal(rows.length, 2);
  assert.equal(rows[0].corpora, "2 labelled corpora");
  assert.equal(rows[0]["same or adjacent pick"], "1/2");
  assert.equal(rows[0]["pick inside labelled set"], "2/2");
  assert.equal(rows[0]["inside, where the set rules an overlap out"], "2/2");
  assert.equal(rows[1].corpora, "facts/x");
  assert.equal(rows[1]["same pick"], "1/1");
});
