import assert from "node:assert/strict";
import { test } from "node:test";
import { loadCorpus } from "../../src/corpus/load";
import { parseSampleRequest } from "../../src/corpus/sample";
import { seamDamageRows } from "../../src/study/damage";
import { measureSplitters, seamSummaryRows } from "../../src/study/seams";

// Moby-Dick (the default prose corpus, installed from npm): 138 chapters of very different lengths.
const docs = loadCorpus("moby-dick").docs;

test("on Moby-Dick, a 40-chapter sample's seam-damage CI covers the full-corpus value for almost every seed", () => {
  const full = seamDamageRows(docs, ["recursive", "window"], 1000, [0, 200], { sample: "all" });
  assert.match(full[0].sample, /^all 138 documents/);
  const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
  const covered = full.map(() => 0);
  for (const seed of seeds) {
    const sampled = seamDamageRows(docs, ["recursive", "window"], 1000, [0, 200], { sample: 40, seed });
    assert.equal(sampled[0].docs, 40);
    assert.match(sampled[0].sample, /sample of 40 of 138 documents/);
    sampled.forEach((row, i) => {
      if (row.low <= full[i].value && full[i].value <= row.high) covered[i]++;
      // A sample is not the corpus: its interval is wider than the full corpus's own.
      assert.ok(row.high - row.low > full[i].high - full[i].low, `${row.label} seed ${seed}`);
    });
  }
  // 95% intervals: about 19 of 20 cover the truth; 16 or fewer would mean the CI is too narrow (p < 0.02).
  covered.forEach((count, i) => assert.ok(count >= 17, `${full[i].label}: covered ${count} of 20`));
});

test("an automatic sample is sized from a pilot, never smaller than it, and says so", () => {
  const rows = seamDamageRows(docs, ["recursive"], 1000, [200], { sample: "auto" });
  assert.ok(rows[0].docs >= 100 && rows[0].docs <= docs.length);
  assert.match(rows[0].sample, /auto: (sized for a 95% CI of ±1\.0 points|too few for a 95% CI of ±1\.0 points)/);
  const loose = seamDamageRows(docs, ["recursive"], 1000, [200], { sample: "auto:0.2" });
  assert.equal(loose[0].docs, 100, "a loose target needs no more than the pilot");
});

test("--sample accepts auto, auto:H, all and a count, and names itself when wrong", () => {
  assert.deepEqual(parseSampleRequest("all"), { kind: "all" });
  assert.deepEqual(parseSampleRequest("250"), { kind: "count", count: 250 });
  assert.deepEqual(parseSampleRequest(undefined), { kind: "auto", halfWidth: 0.01 });
  assert.deepEqual(parseSampleRequest("auto:0.02"), { kind: "auto", halfWidth: 0.02 });
  assert.throws(() => parseSampleRequest("0"), /--sample must be auto/);
  assert.throws(() => parseSampleRequest("most"), /got "most"/);
});

test("on Moby-Dick, a 40-chapter sample's zero-overlap-seam CI covers the full-corpus share for almost every seed", () => {
  const full = seamSummaryRows(measureSplitters(docs, ["langchain", "window"], 1000, 200, { sample: "all" }));
  assert.equal(full[0].documents, 138);
  const covered = full.map(() => 0);
  for (let seed = 1; seed <= 20; seed++) {
    const rows = seamSummaryRows(measureSplitters(docs, ["langchain", "window"], 1000, 200, { sample: 40, seed }));
    rows.forEach((row, i) => {
      const truth = full[i]["zero-overlap seams (%)"] as number;
      if ((row["95% CI low (%)"] as number) <= truth && truth <= (row["95% CI high (%)"] as number)) covered[i]++;
    });
  }
  covered.forEach((count, i) => assert.ok(count >= 17, `${full[i].splitter}: covered ${count} of 20`));
});
