import { after, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";
import { seamlab } from "./spawn-cli";

const dir = tinyCorpusFolder();
after(() => rmSync(dir, { recursive: true, force: true }));

// Every document of the tiny corpus fits in one 1000-char chunk: there is no seam to take a share of.
const args = ["seams", "--corpus", dir, "--splitter", "recursive", "--size", "1000", "--overlap", "200", "--no-cache"];

test("seams on a corpus with no seams says so instead of printing a 0.0% share with a 0–0 CI", () => {
  const result = seamlab([...args, "--quiet"]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^seams\s+0$/m);
  assert.match(result.stdout, /zero-overlap seams\s+none: there are no seams/);
  assert.doesNotMatch(result.stdout, /CI 0\.0%–0\.0%/);
  assert.match(result.stdout, /realised \/ nominal\s+n\/a \(no seams\)/);
});

test("seams --json on a corpus with no seams gives null shares, not 0", () => {
  const result = seamlab([...args, "--json"]);
  assert.equal(result.status, 0, result.stderr);
  const json = JSON.parse(result.stdout);
  assert.equal(json.seams, 0);
  assert.equal(json.zeroOverlapPct, null);
  assert.equal(json.realisedOverlapRatio, null);
  assert.equal(json.sample.zeroOverlap, null);
});

test("compare-splitters on a corpus with no seams prints 'no seams' and null, not a 0.0% share", () => {
  const configs = ["--corpus", dir, "--configs", "recursive:1000:200,window:2000:0"];
  const text = seamlab(["compare-splitters", ...configs]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /recursive:1000:200\s+\d+\s+no seams/);
  const json = JSON.parse(seamlab(["compare-splitters", ...configs, "--json"]).stdout);
  for (const row of json.rows) assert.equal(row.zeroOverlapPct, null, row.config);
});
