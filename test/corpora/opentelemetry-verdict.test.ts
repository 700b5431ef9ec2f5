// On a real corpus with 800+ queries (opentelemetry-docs header queries under SEAMLAB_DATA_DIR, `npm run
// test:corpora`), the paired test of overlap 0 against 400 and the verdict shown must agree: never "use 0" when 0
// is shown worse.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { runOverlapSweep } from "../../src/experiment/sweep";
import { verdictText } from "../../src/experiment/verdict";
import { shownDirection } from "../../src/stats/paired-score";
import { realCorpus } from "../helpers/corpora";

test("on 800+ real queries the paired 0-vs-400 test and the verdict agree", async () => {
  const set = buildHeaderQueries(realCorpus("opentelemetry-docs"), {});
  assert.ok(set.queries.length >= 800, `${set.queries.length} queries`);
  const result = await runOverlapSweep(
    { docs: set.docs, queries: set.queries },
    { splitter: "langchain", size: 1000, overlaps: [0, 400] },
    { workers: 0, quiet: true, cacheDir: null, metric: "hitRate" },
  );
  const curve = result.curves[0];
  const d = curve.decision;
  const vs400 = d.configs[1].fromBaseline; // 400 − 0, paired
  // The paired rule's "shown": the CI (never narrower than Tango's) excludes 0 and the exact McNemar test agrees.
  const significant = shownDirection(vs400) !== null;
  console.log(
    `opentelemetry-verdict: ${set.queries.length} queries, 400 − 0 = ${(100 * vs400.diff).toFixed(1)} points ` +
      `[${(100 * vs400.low).toFixed(1)}, ${(100 * vs400.high).toFixed(1)}], McNemar p = ${vs400.mcnemarP.toPrecision(2)}`,
  );
  const text = verdictText(d, (i) => `overlap ${curve.points[i].x}`);
  console.log(`opentelemetry-verdict: ${text}`);
  if (significant && vs400.diff > 0) {
    // 0 is shown worse than 400 (the best of the two): the verdict must not recommend 0, and must say so.
    assert.equal(d.best, 1);
    assert.equal(d.configs[0].status, "worse");
    assert.notEqual(d.choice, 0);
    assert.match(text, /Shown worse than the best .*overlap 0/);
  } else if (!significant) {
    // Not shown different: the verdict may pick 0 only as non-inferior, or else say undecided; never "worse".
    assert.notEqual(d.configs[0].status, "worse");
    if (d.choice !== 0) assert.equal(d.verdict, "undecided");
  }
});
