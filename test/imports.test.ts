/**
 * The layering of `src/` (DESIGN.md, "Layout"): a module imports only from its own folder or folders below it, and
 * never in a circle. Every import counts: static, type-only, re-exports and literal dynamic `import("./x")`, because
 * tslab type-checks (and recompiles forever on) whatever a notebook reaches, and a type import still ties one
 * folder's meaning to another's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { importSpecifiers, resolveImport } from "../scripts/source-closure";

/** Folders of `src/`, lowest first, as DESIGN.md lists them: each may import only from itself and those before it. */
export const FOLDER_ORDER = [
  "core",
  "build",
  "text",
  "stats",
  "embed",
  "corpus",
  "splitters",
  "measure",
  "retrieval",
  "experiment",
  "study",
  "charts",
  "notebook",
  "report",
  "cli",
];

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|mjs|js)$/.test(name)) out.push(path);
  }
  return out;
}

/** Every cycle reachable by depth-first search, each written `a -> b -> a`. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") {
      cycles.push([...path.slice(path.indexOf(node)), node].join(" -> "));
      return;
    }
    state.set(node, "open");
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) visit(node, []);
  return cycles;
}

const folderOf = (file: string) => relative(src, file).split("/")[0];

const files = sourceFiles(src);
const unresolved: string[] = [];
const graph = new Map<string, string[]>();
for (const file of files) {
  const targets: string[] = [];
  for (const specifier of importSpecifiers(readFileSync(file, "utf8"))) {
    const target = resolveImport(file, specifier);
    if (target === undefined) unresolved.push(`${relative(root, file)}: "${specifier}"`);
    else targets.push(relative(root, target));
  }
  graph.set(relative(root, file), targets);
}

test("the import scanner sees static, type-only, re-exported and literal dynamic imports", () => {
  const text = [
    'import { a } from "./a";',
    'import type { B } from "../b/types";',
    'export { c } from "./c";',
    'const d = await import("./d");',
    'import "./e";',
    'import { readFileSync } from "node:fs";',
  ].join("\n");
  assert.deepEqual(importSpecifiers(text).sort(), ["../b/types", "./a", "./c", "./d", "./e"]);
});

test("the cycle finder reports a three-module circle and nothing for a chain", () => {
  const circle = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a"]],
  ]);
  assert.deepEqual(findCycles(circle), ["a -> b -> c -> a"]);
  assert.deepEqual(
    findCycles(
      new Map([
        ["a", ["b"]],
        ["b", ["c"]],
      ]),
    ),
    [],
  );
});

test("every folder of src/ has a place in the layer order", () => {
  const folders = readdirSync(src)
    .filter((name) => statSync(join(src, name)).isDirectory())
    .sort();
  assert.deepEqual(folders, [...FOLDER_ORDER].sort());
});

test("every relative import in src/ names a file inside src/ (tslab resolves no folder index)", () => {
  assert.deepEqual(unresolved, []);
  const outside = [...graph].flatMap(([file, targets]) =>
    targets.filter((t) => !t.startsWith("src/")).map((t) => `${file} -> ${t}`),
  );
  assert.deepEqual(outside, []);
});

test("no module in src/ imports from a folder above its own", () => {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    const level = FOLDER_ORDER.indexOf(folderOf(join(root, file)));
    for (const target of targets) {
      const targetLevel = FOLDER_ORDER.indexOf(folderOf(join(root, target)));
      if (targetLevel > level) upward.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(upward, []);
});

test("no modules in src/ import each other in a circle", () => {
  assert.deepEqual(findCycles(graph), []);
});
