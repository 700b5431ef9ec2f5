import { test } from "node:test";
import assert from "node:assert/strict";
import { isImportCell, notebookTimings } from "../../src/report/timings";
import type { Notebook } from "../../src/report/nbformat";

test("a cell of import statements and comments is an import cell; one that also computes is not", () => {
  assert.ok(
    isImportCell('import { md } from "./src/notebook/display";\n// why\nimport {\n  a,\n  b,\n} from "./x";\n'),
  );
  assert.ok(!isImportCell('import { md } from "./src/notebook/display";\nmd("hi");\n'));
  assert.ok(!isImportCell("const important = 1;\n"));
  assert.ok(!isImportCell(""));
});

test("an executed notebook's time splits into kernel start, import cells and computing cells", () => {
  const cell = (source: string, ms?: number) => ({
    cell_type: "code" as const,
    source,
    metadata: ms === undefined ? {} : { seamlab: { duration_ms: ms, status: "ok" } },
    outputs: [],
    execution_count: null,
  });
  const notebook: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { seamlab: { duration_ms: 20_000, kernel_start_ms: 3_000 } },
    cells: [
      cell("const corpus = 'x';", 100),
      cell('import { md } from "./src/notebook/display";', 6_000),
      { cell_type: "markdown", source: "Prose.", metadata: {} },
      cell("md(corpus);", 10_000),
      cell("md('not run');"),
    ],
  };
  assert.deepEqual(notebookTimings(notebook), {
    totalMs: 20_000,
    kernelStartMs: 3_000,
    importMs: 6_000,
    computeMs: 10_100,
  });
  assert.equal(notebookTimings({ ...notebook, metadata: {} }), undefined);
});
