// Every notebook is valid nbformat 4 with the seamlab tslab kernelspec, starts with a `parameters` code cell,
// draws at least one chart, keeps its code cells short (in lines and in line length), and is committed without outputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const folder = join(root, "notebooks");
const names = readdirSync(folder).filter((name) => name.endsWith(".ipynb")).sort();
const source = (cell: { source: string | string[] }) => (Array.isArray(cell.source) ? cell.source.join("") : cell.source);
const codeLines = (text: string) => text.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("//")).length;

test("the seven notebooks are there, numbered 01 to 07", () => {
  assert.deepEqual(names.map((name) => name.slice(0, 2)), ["01", "02", "03", "04", "05", "06", "07"]);
});

for (const name of names) {
  const notebook = JSON.parse(readFileSync(join(folder, name), "utf8"));
  const cells: { cell_type: string; source: string | string[]; metadata: { tags?: string[] }; outputs?: unknown[] }[] = notebook.cells;
  const code = cells.filter((cell) => cell.cell_type === "code");

  test(`${name} is nbformat 4 with the seamlab tslab kernelspec`, () => {
    assert.equal(notebook.nbformat, 4);
    assert.ok(notebook.nbformat_minor >= 4);
    assert.deepEqual(notebook.metadata.kernelspec, { name: "seamlab-tslab", display_name: "TypeScript (seamlab)", language: "typescript" });
  });

  test(`${name} starts its code with a parameters cell of consts`, () => {
    assert.deepEqual(code[0].metadata.tags, ["parameters"]);
    for (const line of source(code[0]).split("\n").filter((l) => l.trim() !== "")) assert.match(line, /^const |^\s|^\]|^\];/, line);
  });

  test(`${name} draws at least one chart and keeps every code cell within 15 lines`, () => {
    assert.ok(code.some((cell) => source(cell).includes("chart(")));
    for (const cell of code) assert.ok(codeLines(source(cell)) <= 15, `${codeLines(source(cell))} lines:\n${source(cell)}`);
  });

  test(`${name} keeps every code line within 120 characters (prose is built in src/study/)`, () => {
    for (const cell of code)
      for (const line of source(cell).split("\n")) assert.ok(line.length <= 120, `${line.length} chars: ${line}`);
  });

  test(`${name} is committed without outputs and begins with a markdown title`, () => {
    for (const cell of code) assert.deepEqual(cell.outputs, []);
    assert.equal(cells[0].cell_type, "markdown");
    assert.match(source(cells[0]), /^# /);
  });
}
