import { after, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";
import { seamlab } from "./spawn-cli";

const dir = tinyCorpusFolder();
after(() => rmSync(dir, { recursive: true, force: true }));

// Every document of the tiny corpus fits in one 1000-char chunk: there is no seam to take a share of.
const args = ["sweep", "--corpus", dir, "--splitter", "recursive", "--size", "1000", "--overlaps", "0,200"];
const run = (more: string[]) => seamlab([...args, "--no-cache", "--workers", "0", "--quiet", ...more]);

test("sweep on a corpus with no seams prints 'none' for the zero-overlap seams share, not 0.0", () => {
  const result = run([]);
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.split("\n");
  const header = lines.findIndex((line) => line.startsWith("overlap  chunks  zero-overlap seams %  pairs kept %"));
  assert.ok(header >= 0, result.stdout);
  for (const line of lines.slice(header + 1, header + 3)) {
    assert.match(line, /^\s+(0|200)\s+\d+\s+none\s+\d/, line);
  }
});

test("sweep --json on a corpus with no seams gives a null zero-overlap share, not 0", () => {
  const result = run(["--json"]);
  assert.equal(result.status, 0, result.stderr);
  const rows = JSON.parse(result.stdout).rows as { overlap: number; zeroOverlapPct: number | null }[];
  assert.equal(rows.length, 2);
  for (const row of rows) assert.equal(row.zeroOverlapPct, null, `overlap ${row.overlap}`);
});

test("the curve's column header names what --metric shows: recall@k by default, hit rate@k with hit-rate", () => {
  const recall = run(["--ks", "3"]);
  assert.equal(recall.status, 0, recall.stderr);
  assert.match(recall.stdout, /pairs kept % {2}recall@3 % {2}95% CI/);
  assert.doesNotMatch(recall.stdout, /hit%|recall%|zero-seams%|pairs-kept%/);
  const hit = run(["--ks", "3", "--metric", "hit-rate"]);
  assert.equal(hit.status, 0, hit.stderr);
  assert.match(hit.stdout, /pairs kept % {2}hit rate@3 % {2}95% CI/);
});
