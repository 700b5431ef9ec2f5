import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { groupBreakdown, groupVerdictHeadline, queryGroups, readGroupRules } from "../../src/experiment/groups";
import { sweepCurves } from "../../src/experiment/sweep";
import { costedRow } from "../helpers/costed-row";
import type { Query } from "../../src/core/types";

const query = (doc: string, i: number): Query => ({ id: `${doc}#${i}`, text: "q", gold: [{ doc, start: 0, end: 1 }] });

test("by default queries group by the first folder below the one all documents share", () => {
  const queries = [query("content/en/blog/a.md", 0), query("content/en/docs/x/b.md", 1), query("content/en/c.md", 2)];
  assert.deepEqual(queryGroups(queries), ["blog", "docs", "(top level)"]);
});

test("a groups file maps globs to names, first match wins, the rest is other", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-groups-"));
  const file = join(dir, "groups.json");
  writeFileSync(file, JSON.stringify({ "docs/api/**": "api", "docs/**": "guides" }));
  const rules = readGroupRules(file);
  const queries = [query("docs/api/a.md", 0), query("docs/intro.md", 1), query("blog/b.md", 2)];
  assert.deepEqual(queryGroups(queries, rules), ["api", "guides", "other"]);
  writeFileSync(file, "[1, 2]");
  assert.throws(() => readGroupRules(file), /must be a JSON object from glob to group name/);
  writeFileSync(file, "{nope");
  assert.throws(() => readGroupRules(file), /is not valid JSON/);
  assert.throws(() => readGroupRules(join(dir, "missing.json")), /--groups .*missing\.json: no such file/);
});

test("a group where overlap costs hits gets its own verdict and is named as wanting another overlap", () => {
  // Group "a" (400 queries, enough for agreeing configs to be shown within a point): overlap 0 and 200 agree.
  // Group "b" (200 queries): overlap 0 misses 40 that 200 hits.
  const a = "1".repeat(160) + "0".repeat(240);
  const b0 = "0".repeat(40) + "1".repeat(60) + "0".repeat(100);
  const b2 = "1".repeat(100) + "0".repeat(100);
  const rows = [costedRow(0, a + b0, 100), costedRow(200, a + b2, 120)];
  const curve = sweepCurves(rows, "hitRate")[0];
  assert.equal(curve.decision.choice, 1, "the whole corpus wants overlap 200");
  const groups = [...Array(400).fill("a"), ...Array(200).fill("b")];
  const breakdown = groupBreakdown(curve, rows, groups);
  const byName = Object.fromEntries(breakdown.map((g) => [g.group, g]));
  assert.equal(byName.a.decision.choice, 0);
  assert.equal(byName.a.decision.verdict, "decided");
  assert.ok(byName.a.differs);
  assert.equal(byName.b.decision.choice, 1);
  assert.ok(!byName.b.differs);
  assert.ok(Math.abs(byName.b.pickVersusBaseline.diff - 0.2) < 1e-12);
  assert.ok(byName.b.pickVersusBaseline.low > 0.1);
});

test("groups smaller than the minimum are pooled", () => {
  const hits = "10".repeat(50);
  const rows = [costedRow(0, hits, 100), costedRow(100, hits, 110)];
  const curve = sweepCurves(rows, "hitRate")[0];
  const groups = [...Array(90).fill("big"), ...Array(5).fill("tiny"), ...Array(5).fill("wee")];
  const breakdown = groupBreakdown(curve, rows, groups, { minQueries: 30 });
  assert.deepEqual(
    breakdown.map((g) => [g.group, g.queries]),
    [
      ["big", 90],
      ["(small groups)", 10],
    ],
  );
  assert.ok(breakdown.every((g) => !g.differs || g.group !== "(small groups)"));
  // A pool still under the minimum states no verdict of its own (the bootstrap of 10 agreeing queries would
  // call overlap 0 "within 1 point of the best"); a group at or over it does.
  const [big, pool] = breakdown;
  assert.equal(pool.tooFewQueries, true);
  assert.equal(
    groupVerdictHeadline(pool, (i) => `overlap ${i}`),
    "too few queries to decide (10 of 30 needed)",
  );
  assert.equal(big.tooFewQueries, false);
  assert.doesNotMatch(
    groupVerdictHeadline(big, (i) => `overlap ${i}`),
    /too few/,
  );
});
