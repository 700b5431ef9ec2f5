// Runs fixture notebooks through the real tslab kernel (≈3 s kernel start each).
import { test } from "node:test";
import assert from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { joinSource, readNotebook, type CodeCell, type Notebook } from "../../src/report/nbformat";
import { describeFailure, runNotebook } from "../../src/report/run";
import { TABLE_MIME, VEGA_LITE_MIME } from "../../src/notebook/mime";
import { codeNotebook } from "../helpers/notebooks";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const fixtures = join(here, "..", "fixtures", "notebooks");
const codeCells = (nb: Notebook) => nb.cells.filter((cell): cell is CodeCell => cell.cell_type === "code");
/** The runner's record in a cell's or notebook's metadata. */
const seamlabMeta = (metadata: Record<string, unknown>) =>
  metadata.seamlab as { status: string; duration_ms?: number; parameters?: Record<string, unknown> };

test("a notebook runs through tslab with injected parameters, multi-MIME displays, merged updates and timings", async () => {
  const result = await runNotebook(readNotebook(join(fixtures, "every-output.ipynb")), {
    root,
    parameters: { corpus: "/data/injected" },
    cellTimeoutMs: 120_000,
  });
  assert.equal(result.ok, true, JSON.stringify(result.failed));
  const cells = codeCells(result.notebook);
  assert.deepEqual(cells[1].metadata.tags, ["injected-parameters"]);
  assert.equal(
    joinSource(cells[1].source),
    '// Parameters injected by `seamlab report`\nconst corpus = "/data/injected";',
  );
  const [stdout] = cells[2].outputs;
  assert.ok(stdout.output_type === "stream" && String(stdout.text).startsWith("corpus=/data/injected k=3\n"));
  const table = cells[2].outputs.find((o) => o.output_type === "display_data" && TABLE_MIME in o.data);
  assert.ok(
    table &&
      table.output_type === "display_data" &&
      typeof table.data["text/html"] === "string" &&
      typeof table.data["text/plain"] === "string",
  );
  const charts = cells[3].outputs.filter((o) => o.output_type === "display_data" && VEGA_LITE_MIME in o.data);
  assert.equal(charts.length, 2);
  const updated = cells[4].outputs[0];
  assert.ok(updated.output_type === "display_data");
  assert.equal(updated.data["text/plain"], "done: 3 of 3");
  assert.ok(cells[4].outputs.some((o) => o.output_type === "stream" && o.name === "stderr"));
  for (const cell of cells) {
    assert.equal(typeof seamlabMeta(cell.metadata).duration_ms, "number");
    assert.equal(seamlabMeta(cell.metadata).status, "ok");
    assert.ok(cell.execution_count !== null);
  }
  assert.equal(seamlabMeta(result.notebook.metadata).status, "ok");
  assert.deepEqual(seamlabMeta(result.notebook.metadata).parameters, { corpus: "/data/injected" });
  assert.equal(result.notebook.nbformat, 4);
});

test("a failing cell stops the run, keeps its error, leaves later cells unexecuted and is named in the message", async () => {
  const result = await runNotebook(readNotebook(join(fixtures, "failing-cell.ipynb")), {
    root,
    cellTimeoutMs: 120_000,
  });
  assert.equal(result.ok, false);
  assert.ok(result.failed);
  assert.equal(result.failed.codeCellNumber, 3);
  assert.equal(result.failed.message, "Error: no seams found in default-corpus");
  assert.equal(
    describeFailure("notebooks/failing-cell.ipynb", result.failed),
    'failing-cell.ipynb, code cell [3] (cell 4 of the executed notebook, id "c3"): Error: no seams found in default-corpus',
  );
  const cells = codeCells(result.notebook);
  assert.equal(seamlabMeta(cells[2].metadata).status, "error");
  const error = cells[2].outputs.find((o) => o.output_type === "error");
  assert.ok(error && error.output_type === "error" && error.ename === "Error");
  assert.deepEqual(cells[3].outputs, []);
  assert.equal(cells[3].execution_count, null);
  assert.equal(cells[3].metadata.seamlab, undefined);
});

test("a cell that exceeds the timeout is interrupted and reported as timed out", async () => {
  const notebook = codeNotebook('const type: number = "not a number";');
  const compileError = await runNotebook(notebook, { root, cellTimeoutMs: 120_000 });
  assert.equal(compileError.ok, false);
  assert.match(compileError.failed!.message, /Type 'string' is not assignable to type 'number'/);

  // Ten minutes: only the interrupt can end this cell within the test's lifetime.
  const sleeping = codeNotebook("await new Promise((r) => setTimeout(r, 600000));");
  const started = Date.now();
  const slow = await runNotebook(sleeping, { root, cellTimeoutMs: 1500 });
  assert.equal(slow.ok, false);
  assert.match(slow.failed!.message, /timed out after 2 s and was interrupted/);
  assert.equal(seamlabMeta(codeCells(slow.notebook)[0].metadata).status, "timeout");
  // Not a timing claim: a loaded machine may take a while to start the kernel, but nowhere near the ten minutes.
  assert.ok(Date.now() - started < 300_000, "did not wait for the cell to finish");
});

test("a kernel gets the environment the runner passes (the report caps each kernel's worker threads this way)", async () => {
  const notebook = codeNotebook('console.log("workers=" + process.env.SEAMLAB_WORKERS);');
  const result = await runNotebook(notebook, { root, cellTimeoutMs: 120_000, env: { SEAMLAB_WORKERS: "1" } });
  assert.equal(result.ok, true, JSON.stringify(result.failed));
  const [out] = codeCells(result.notebook)[0].outputs;
  assert.ok(out.output_type === "stream" && String(out.text).includes("workers=1"), JSON.stringify(out));
});
