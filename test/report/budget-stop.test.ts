// `--budget`'s time limit per notebook through the real tslab kernel (≈3 s kernel start each): a notebook that passes
// its limit is stopped and left out, its page says so, and the report is published with the others.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildReport } from "../../src/report/build";
import { etaFromPlan } from "../../src/report/schedule";
import type { Notebook } from "../../src/report/nbformat";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

const notebook = (title: string, code: string): Notebook => ({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [
    { cell_type: "markdown", source: `# ${title}\n`, metadata: {} },
    { cell_type: "code", source: code, metadata: {}, outputs: [], execution_count: null },
  ],
});

test("a notebook past its --budget time limit is stopped and left out, and the report is published with the others", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-budget-stop-"));
  try {
    const notebooks = join(dir, "notebooks");
    mkdirSync(notebooks);
    writeFileSync(join(notebooks, "01-quick.ipynb"), JSON.stringify(notebook("Quick", 'console.log("quick-done");')));
    // Ten minutes: only the time limit can end this cell within the test's lifetime.
    const slow = notebook("Slow", "await new Promise((r) => setTimeout(r, 600000));");
    writeFileSync(join(notebooks, "02-slow.ipynb"), JSON.stringify(slow));
    const out = join(dir, "out");
    const lines: string[] = [];
    const started = Date.now();
    process.env.SEAMLAB_REPORT_SOURCES = "tslab"; // the kernels compile src/: no copy of it to make for this test
    const result = await buildReport({
      root,
      notebooksDir: notebooks,
      outDir: out,
      jobs: 2,
      cellTimeoutMs: 600_000,
      budgetMinutes: 3,
      notebookPlans: { "02": { estimatedMs: 5_000, timeLimitMs: 15_000 } },
      log: (line) => lines.push(line),
    });
    assert.ok(Date.now() - started < 300_000, "did not wait for the slow cell");
    assert.equal(result.ok, true, result.failures.join("\n"));
    assert.deepEqual(result.stopped, ["02-slow"]);
    assert.ok(
      lines.some((line) => /02-slow: STOPPED at its time limit/.test(line)),
      lines.join("\n"),
    );
    const page = readFileSync(join(out, "02-slow.html"), "utf8");
    assert.match(page, /this notebook was <strong>stopped<\/strong> at its time limit of 15 s/);
    assert.match(page, /--only 02/);
    assert.match(readFileSync(join(out, "01-quick.html"), "utf8"), /quick-done/);
    const saved = JSON.parse(readFileSync(join(out, "02-slow.ipynb"), "utf8"));
    assert.equal(saved.metadata.seamlab.budget, "stopped");
  } finally {
    delete process.env.SEAMLAB_REPORT_SOURCES;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the ETA under --budget is what is left of the planned times, not the mean of the finished notebooks", () => {
  // 01 (1 min) done; 03 (8 min) running for 2 min; 05 (4 min) waiting; 06 not run (no estimate); one at a time
  const planned = [60_000, 480_000, 240_000, undefined];
  const eta = etaFromPlan(4, planned, new Set([0, 3]), new Map([[1, 1_000]]), 121_000, 1);
  assert.equal(eta, 360_000 + 240_000);
  assert.equal(etaFromPlan(4, planned, new Set([0, 3]), new Map([[1, 1_000]]), 121_000, 2), 300_000);
  assert.equal(etaFromPlan(2, [undefined, undefined], new Set(), new Map(), 0, 1), undefined);
  // a notebook past its estimate counts nothing more, not a negative time
  assert.equal(etaFromPlan(1, [1_000], new Set(), new Map([[0, 0]]), 5_000, 1), 0);
});
