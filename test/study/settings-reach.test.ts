// The report's settings reach notebooks 04-07 through their study functions: heading levels choose the header
// queries (and the text says which), and the margin is the one the paired verdicts are drawn at.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CostedRow } from "../../src/experiment/run";
import { labelledInputs } from "../../src/study/labelled";
import { loadTypedInputs } from "../../src/study/type-queries";
import { typeCurve, typeRecommendationCaption } from "../../src/study/type-sweep";

/** 6 documents, each with two `##` sections and one `###` section under the second: 12 `##` and 6 `###` queries. */
function corpusDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-settings-reach-"));
  for (let d = 0; d < 6; d++) {
    const text =
      `# Doc ${d}\n\n## Setup ${d}\n\nSetup ${d} installs the tool for task ${d}.\n\n` +
      `## Usage ${d}\n\nUsage ${d} runs the tool on input ${d}.\n\n` +
      `### Flags ${d}\n\nFlag ${d} turns on the verbose mode for run ${d}.\n`;
    writeFileSync(join(dir, `doc${d}.md`), text);
  }
  return dir;
}

test("notebook 07's typed header queries come from the heading levels asked for, and its source says which", () => {
  const dir = corpusDir();
  try {
    const both = loadTypedInputs(dir, "headers", [], "all");
    const h2 = loadTypedInputs(dir, "headers", [], "all", [2]);
    assert.equal(both.queries.length, 18);
    assert.equal(h2.queries.length, 12);
    assert.equal(h2.types.length, 12);
    assert.match(both.querySource, /each ## and ### heading is a question/);
    assert.match(h2.querySource, /each ## heading is a question/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("notebook 05's labelled set built from headings uses the heading levels asked for, and its label says which", () => {
  const dir = corpusDir();
  try {
    const both = labelledInputs(dir, undefined, "all");
    const h2 = labelledInputs(dir, undefined, "all", [2]);
    assert.equal(both.queries.length, 18);
    assert.equal(h2.queries.length, 12);
    assert.match(both.label, /^18 header queries \(## and ###, as a labelled file\)$/);
    assert.match(h2.label, /^12 header queries \(##, as a labelled file\)$/);
    assert.match(h2.howBuilt, /^each ## heading is a question/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("notebook 07's per-type verdict is drawn at the margin given: a 1-point gap is within 2 points, not within 1", () => {
  // overlap 100 hits 1 point more than overlap 0 on 2,000 queries (paired: it hits every query 0 hits)
  const n = 2000;
  const row = (storage: number, hit: (i: number) => boolean) =>
    ({
      hits: Array.from({ length: n }, (_, i) => (hit(i) ? "1" : "0")).join(""),
      cost: { storageBytes: storage },
    }) as unknown as CostedRow;
  const rows = [row(100, (i) => i % 200 < 100), row(110, (i) => i % 200 < 102)];
  const all = Array.from({ length: n }, (_, i) => i);
  const atOne = typeCurve("all", rows, [0, 100], all, 20);
  const atTwo = typeCurve("all", rows, [0, 100], all, 20, 0.02);
  assert.equal(atOne.decision?.margin, 0.01);
  assert.equal(atTwo.decision?.margin, 0.02);
  assert.equal(atTwo.recommended, 0, "within 2 points of the best, the cheaper overlap is chosen");
  assert.notEqual(atOne.recommended, 0, "1 point worse is not shown within 1 point");
  assert.match(typeRecommendationCaption(0.02), /at a 2 points margin$/);
});
