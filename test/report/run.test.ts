// Runs fixture notebooks through the real tslab kernel (≈3 s kernel start each).
import { test } from "node:test";
import assert from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { joinSource, readNotebook, type CodeCell, type Notebook } from "../../src/report/nbformat";
import { describeFailure, runNotebook } from "../../src/report/run";
import { TABLE_MIME, VEGA_LITE_MIME } from "../../src/notebook/mime";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const fixtures = join(here, "..", "fixtures", "notebooks");
const codeCells = (nb: Notebook) => nb.cells.filter((cell): cell is CodeCell => cell.cell_type === "code");

test("a notebook runs through tslab with injected parameters, multi-MIME displays, merged updates and timings", async () => {
  const result = await runNotebook(readNotebook(join(fixtures, "every-output.ipynb")), {
    root,
    parameters: { corpus: "/data/injected" },
    cellTimeoutMs: 30_000,
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
    assert.equal(typeof cell.metadata.seamlab.duration_ms, "number");
    assert.equal(cell.metadata.seamlab.status, "ok");
    assert.ok(cell.execution_count !== null);
  }
  assert.equal(result.notebook.metadata.seamlab.status, "ok");
  assert.deepEqual(result.notebook.metadata.seamlab.parameters, { corpus: "/data/injected" });
  assert.equal(result.notebook.nbformat, 4);
});

test("a failing cell stops the run, keeps its error, leaves later cells unexecuted and is named in the message", async () => {
  const result = await runNotebook(readNotebook(join(fixtures, "failing-cell.ipynb")), { root, cellTimeoutMs: 30_000 });
  assert.equal(result.ok, false);
  assert.ok(result.failed);
  assert.equal(result.failed.codeCellNumber, 3);
  assert.equal(result.failed.message, "Error: no seams found in default-corpus");
  assert.equal(
    describeFailure("notebooks/failing-cell.ipynb", result.failed),
    'failing-cell.ipynb, code cell [3] (cell 4 of the executed notebook, id "c3"): Error: no seams found in default-corpus',
  );
  const cells = codeCells(result.notebook);
  assert.equal(cells[2].metadata.seamlab.status, "error");
  const error = cells[2].outputs.find((o) => o.output_type === "error");
  assert.ok(error && error.output_type === "error" && error.ename === "Error");
  assert.deepEqual(cells[3].outputs, []);
  assert.equal(cells[3].execution_count, null);
  assert.equal(cells[3].metadata.seamlab, undefined);
});

test("a cell that exceeds the timeout is interrupted and reported as timed out", async () => {
  const notebook: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      {
        cell_type: "code",
        source: 'const type: number = "not a number";',
        metadata: {},
        outputs: [],
        execution_count: null,
      },
    ],
  };
  const compileError = await runNotebook(notebook, { root, cellTimeoutMs: 30_000 });
  assert.equal(compileError.ok, false);
  assert.match(compileError.failed!.message, /Type 'string' is not assignable to type 'number'/);

  notebook.cells = [
    {
      cell_type: "code",
      source: "await new Promise((r) => setTimeout(r, 20000));",
      metadata: {},
      outputs: [],
      execution_count: null,
    },
  ];
  const started = Date.now();
  const slow = await runNotebook(notebook, { root, cellTimeoutMs: 1500 });
  assert.equal(slow.ok, false);
  assert.match(slow.failed!.message, /timed out after 2 s and was interrupted/);
  assert.equal(codeCells(slow.notebook)[0].metadata.seamlab.status, "timeout");
  assert.ok(Date.now() - started < 15_000, "did not wait for the cell to finish");
});
