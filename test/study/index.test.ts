/**
 * `src/study/index.ts` is the notebooks' whole API (DESIGN.md: like d3-array's `src/index.js`). The notebooks import
 * from it, `src/charts/index.ts` and `src/notebook/index.ts`; these tests hold the index files to what notebooks ask.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The modules notebooks may import, as notebooks name them (tslab resolves from the project root). */
const API_MODULES = ["./src/study/index", "./src/charts/index", "./src/notebook/index"];

interface NotebookImport {
  notebook: string;
  from: string;
  name: string;
}

/** Every `import { a, b as c } from "./src/..."` in the notebooks' code cells, one entry per imported name. */
function notebookImports(notebooksDir = join(root, "notebooks")): NotebookImport[] {
  const found: NotebookImport[] = [];
  for (const file of readdirSync(notebooksDir)
    .filter((name) => name.endsWith(".ipynb"))
    .sort()) {
    const notebook = JSON.parse(readFileSync(join(notebooksDir, file), "utf8")) as {
      cells: { cell_type: string; source: string | string[] }[];
    };
    for (const cell of notebook.cells) {
      if (cell.cell_type !== "code") continue;
      const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
      for (const match of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(\.\/src\/[^"]+)"/g)) {
        for (const part of match[1].split(",")) {
          const name = part
            .replace(/^\s*type\s+/, "")
            .split(/\s+as\s+/)[0]
            .trim();
          if (name) found.push({ notebook: file, from: match[2], name });
        }
      }
    }
  }
  return found;
}

/**
 * The names an index file exports (`export { a, b } from` and `export type { T } from`), parsed from its text;
 * `values` leaves out type-only exports (they do not exist at run time).
 */
function exportedNames(module: string, { values = false } = {}): Set<string> {
  const text = readFileSync(join(root, `${module}.ts`), "utf8");
  const names = new Set<string>();
  for (const match of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    if (values && match[1]) continue;
    for (const part of match[2].split(",")) {
      if (values && /^\s*type\s/.test(part)) continue;
      const name = part
        .replace(/^\s*type\s+/, "")
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) names.add(name);
    }
  }
  return names;
}

test("every value study/index.ts exports exists at run time", async () => {
  const api = (await import("../../src/study/index")) as Record<string, unknown>;
  const declared = [...exportedNames("./src/study/index", { values: true })];
  assert.ok(declared.length > 100, `study/index.ts exports only ${declared.length} names`);
  const missing = declared.filter((name) => api[name] === undefined);
  assert.deepEqual(missing, [], "names study/index.ts exports that its modules do not define");
});

test("every name a notebook imports from study/index, charts/index or notebook/index is exported there", () => {
  const unknown = notebookImports()
    .filter((entry) => API_MODULES.includes(entry.from) && !exportedNames(entry.from).has(entry.name))
    .map((entry) => `${entry.notebook}: ${entry.name} from ${entry.from}`);
  assert.deepEqual(unknown, []);
});

// Notebooks still importing deep paths. Printed, not asserted, while the notebooks move to the index files; to make it
// a rule, set ASSERT_NOTEBOOKS_USE_INDEX to true (then every notebook import must come from API_MODULES).
const ASSERT_NOTEBOOKS_USE_INDEX = true;

test("notebooks import only from study/index, charts/index and notebook/index", (t) => {
  const deep = notebookImports().filter((entry) => !API_MODULES.includes(entry.from));
  const lines = deep.map((entry) => `${entry.notebook}: ${entry.name} from ${entry.from}`);
  // Deep imports the index cannot serve yet: each name must be added to study/index.ts before its notebook moves.
  const study = exportedNames("./src/study/index");
  const notServed = deep
    .filter((entry) => entry.from.startsWith("./src/study/") || entry.from.startsWith("./src/corpus/"))
    .filter((entry) => !study.has(entry.name))
    .map((entry) => `${entry.notebook}: ${entry.name} from ${entry.from}`);
  if (ASSERT_NOTEBOOKS_USE_INDEX) assert.deepEqual(lines, []);
  else if (lines.length > 0) {
    t.diagnostic(`${lines.length} notebook imports are not yet from the index files; by notebook, the paths they use:`);
    for (const notebook of [...new Set(deep.map((entry) => entry.notebook))]) {
      const paths = [...new Set(deep.filter((entry) => entry.notebook === notebook).map((entry) => entry.from))];
      t.diagnostic(`${notebook}: ${paths.join(", ")}`);
    }
  }
  // Printed too while notebooks and study/ change together; with ASSERT_NOTEBOOKS_USE_INDEX the first assertion
  // covers it (a name the index lacks cannot be imported from it).
  if (notServed.length > 0) t.diagnostic(`not yet exported by study/index.ts: ${notServed.join("; ")}`);
});
