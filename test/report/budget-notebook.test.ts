// A notebook as --budget reduced it: the note under the parameters, left-out sections replaced by one line each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyBudgetPlan } from "../../src/report/budget-notebook";
import { joinSource, type Cell, type Notebook } from "../../src/report/nbformat";

const code = (source: string, tags: string[] = []): Cell => ({
  cell_type: "code",
  source,
  metadata: tags.length ? { tags } : {},
  outputs: [],
  execution_count: null,
});
const text = (source: string): Cell => ({ cell_type: "markdown", source, metadata: {} });
const notebook: Notebook = {
  nbformat: 4,
  nbformat_minor: 5,
  // the sections' names on the page are the notebook's own (its declared work)
  metadata: { seamlab: { work: { sections: { grid: { name: "the size × overlap grid" } } } } },
  cells: [
    text("# Title"),
    code("const overlaps = [0, 1];", ["parameters"]),
    code("const sweep = run();"),
    text("## The grid"),
    code("const grid = g();", ["budget:grid"]),
    code("show(grid);", ["budget:grid"]),
    code("const dense = d();", ["budget:dense"]),
  ],
};

test("sections left out lose their code cells, and one line says so where they were", () => {
  const out = applyBudgetPlan(notebook, { skip: ["grid"], note: "ran less" });
  const sources = out.cells.map((c) => joinSource(c.source));
  assert.deepEqual(sources.slice(0, 4), [
    "# Title",
    "const overlaps = [0, 1];",
    "> **Budget.** ran less",
    "const sweep = run();",
  ]);
  assert.ok(!sources.some((s) => s.includes("g()") || s.includes("show(grid)")), "no grid code left");
  assert.ok(sources.some((s) => /^\*Left out under `--budget`: the size × overlap grid/.test(s)));
  assert.ok(sources.includes("const dense = d();"), "a section not skipped stays");
  // a section the notebook does not name is said by its tag
  const dense = applyBudgetPlan(notebook, { skip: ["dense"] }).cells.map((c) => joinSource(c.source));
  assert.ok(dense.some((s) => /^\*Left out under `--budget`: dense \(/.test(s)));
  assert.equal(notebook.cells.length, 7, "the input is not changed");
});

test("a notebook not run keeps its title and the note, and counts as executed", () => {
  const out = applyBudgetPlan(notebook, { skipAll: true, note: "not run" });
  assert.deepEqual(
    out.cells.map((c) => joinSource(c.source)),
    ["# Title", "> **Budget.** not run"],
  );
  assert.equal((out.metadata.seamlab as { status: string }).status, "ok");
});

test("no plan of sections and no note leaves the notebook as it was", () => {
  assert.deepEqual(applyBudgetPlan(notebook, {}).cells, notebook.cells);
});
