// `seamlab report`'s settings reach notebooks 04-07 (issue 31 §1, issue 30 §2): each declares the settings that make
// sense for it, with the CLI's defaults, and uses every one it declares (a declared but unused setting would take a
// flag and change nothing, silently).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { cellTags, declaredParameters, joinSource, readNotebook } from "../../src/report/nbformat";
import { DEFAULT_HEADING_LEVELS } from "../../src/retrieval/header-queries";

/** The notebook parameters the report's flags set (src/cli/report-settings.ts). */
const SETTINGS = ["splitter", "size", "sizes", "overlaps", "k", "margin", "headingLevels", "contextBudget"];

const notebooks = {
  "04-topk-redundancy.ipynb": ["splitter", "size", "overlaps", "k", "margin", "headingLevels"],
  "05-labelled-eval.ipynb": ["k", "headingLevels"],
  "06-semantic-chunking.ipynb": ["size", "k", "headingLevels"],
  // 07 compares a list of splitters: --splitter must not replace it
  "07-document-types.ipynb": ["size", "overlaps", "k", "margin", "headingLevels"],
};

function parametersAndCode(name: string): { parameters: string; code: string; declared: string[] } {
  const notebook = readNotebook(join("notebooks", name));
  const at = notebook.cells.findIndex((cell) => cellTags(cell).includes("parameters"));
  const code = notebook.cells
    .slice(at + 1)
    .filter((cell) => cell.cell_type === "code")
    .map((cell) => joinSource(cell.source))
    .join("\n");
  return { parameters: joinSource(notebook.cells[at].source), code, declared: declaredParameters(notebook) };
}

for (const [name, expected] of Object.entries(notebooks)) {
  test(`${name} declares the report settings ${expected.join(", ")} and uses each one`, () => {
    const { parameters, code, declared } = parametersAndCode(name);
    assert.deepEqual(declared.filter((p) => SETTINGS.includes(p)).sort(), [...expected].sort());
    for (const setting of expected)
      assert.match(code, new RegExp(`(?<![.\\w])${setting}\\b(?!\\s*:)`), `${name}: ${setting} is never used`);
    assert.ok(parameters.includes(`const headingLevels = [${DEFAULT_HEADING_LEVELS.join(", ")}];`), parameters);
    if (expected.includes("margin")) assert.ok(parameters.includes("const margin = 0.01;"), parameters);
  });
}
