import { test } from "node:test";
import assert from "node:assert/strict";
import { injectParameters, joinSource, parameterValues, splitLines, type Notebook } from "../../src/report/nbformat";
import { SeamlabError } from "../../src/core/errors";

function notebook(): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      { cell_type: "markdown", source: "# T", metadata: {} },
      {
        cell_type: "code",
        source: 'const corpus = "a";',
        metadata: { tags: ["parameters"] },
        outputs: [],
        execution_count: null,
      },
      { cell_type: "code", source: "corpus", metadata: {}, outputs: [], execution_count: null },
    ],
  };
}

test("injected parameters go in a tagged cell right after the parameters cell, sorted by name", () => {
  const result = injectParameters(notebook(), { corpus: "/data/x", k: 5 });
  assert.equal(result.cells.length, 4);
  assert.deepEqual(result.cells[2].metadata.tags, ["injected-parameters"]);
  assert.equal(
    joinSource(result.cells[2].source),
    '// Parameters injected by `seamlab report`\nconst corpus = "/data/x";\nconst k = 5;',
  );
});

test("injecting twice replaces the earlier injected cell instead of stacking them", () => {
  const twice = injectParameters(injectParameters(notebook(), { corpus: "a" }), { corpus: "b" });
  const injected = twice.cells.filter((cell) =>
    (cell.metadata.tags as string[] | undefined)?.includes("injected-parameters"),
  );
  assert.equal(injected.length, 1);
  assert.match(joinSource(injected[0].source), /"b"/);
});

test("string values are escaped as TypeScript string literals", () => {
  const result = injectParameters(notebook(), { corpus: 'quote " and \\ and\nnewline' });
  assert.equal(joinSource(result.cells[2].source).split("\n")[1], 'const corpus = "quote \\" and \\\\ and\\nnewline";');
});

test("a parameter name that is not an identifier is refused, naming it", () => {
  assert.throws(
    () => injectParameters(notebook(), { "x; process.exit()": 1 }),
    (error: unknown) => error instanceof SeamlabError && /x; process.exit\(\)/.test(error.message),
  );
});

test("a notebook without a parameters cell gets the injected cell first", () => {
  const nb = notebook();
  nb.cells[1].metadata = {};
  assert.deepEqual(injectParameters(nb, { k: 1 }).cells[0].metadata.tags, ["injected-parameters"]);
});

test("splitLines keeps the newline on each line, as nbformat stores sources", () => {
  assert.deepEqual(splitLines("a\nb\n\nc"), ["a\n", "b\n", "\n", "c"]);
});

test("the injected cell has an id only in nbformat 4.5+ notebooks, whose schema allows ids", () => {
  assert.equal(injectParameters(notebook(), { k: 1 }).cells[2].id, "injected-parameters");
  assert.equal("id" in injectParameters({ ...notebook(), nbformat_minor: 4 }, { k: 1 }).cells[2], false);
});

test("a parameters cell's literal values are read as the kernel would see them; anything else is left out", () => {
  const nb: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      {
        cell_type: "code",
        source: [
          'const corpus = "fastify-docs"; // a name; "quoted" in the comment\n',
          "const overlaps = [0, 50, 100]; // the grid\n",
          'const viewerDoc: string | number = "auto";\n',
          "const configs = [\n",
          '  { splitter: "recursive", size: 1000, overlap: 0 },\n',
          '  { splitter: "window", size: 500, overlap: 100 },\n',
          "];\n",
          "const queries: string | undefined = undefined;\n",
          "const flag = true;\n",
          "const computed = 3 * size;\n",
        ],
        metadata: { tags: ["parameters"] },
        outputs: [],
        execution_count: null,
      },
    ],
  };
  assert.deepEqual(parameterValues(nb), {
    corpus: "fastify-docs",
    overlaps: [0, 50, 100],
    viewerDoc: "auto",
    configs: [
      { splitter: "recursive", size: 1000, overlap: 0 },
      { splitter: "window", size: 500, overlap: 100 },
    ],
    flag: true,
  });
  assert.deepEqual(parameterValues({ ...nb, cells: [] }), {});
});
