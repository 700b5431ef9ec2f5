// A report kernel whose notebook names nothing of Node's starts without @types/node (src/report/kernel-node-types.ts):
// the global names must come from the declarations themselves, the decision must never drop them for code that
// uses them, and a kernel started that way must still run project code and check cells.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type * as TypeScript from "typescript";
import { needsNodeTypes, plainlyClear } from "../../src/report/kernel-node-types";
import { globalDeclarationNames, prepareKernelSources, startKernelSources } from "../../src/build/kernels/copy";
import { makeKernelNodeModules, TslabKernel } from "../../src/report/kernel";
import { runNotebook } from "../../src/report/run";
import { codeNotebook } from "../helpers/notebooks";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const ts = createRequire(join(root, "node_modules", "tslab", "package.json"))(
  "@tslab/typescript-for-tslab",
) as typeof TypeScript;
const parse = (name: string, text: string) => ts.createSourceFile(name, text, ts.ScriptTarget.ES2022);

test("global names: a script file's declarations and `declare global` blocks, not a module's own exports", () => {
  const script = parse(
    "globals.d.ts",
    "declare var process: NodeJS.Process;\ndeclare function setTimeout(f: () => void): number;\n" +
      "interface ErrorConstructor { captureStackTrace(o: object): void }\ndeclare namespace NodeJS { interface Process {} }\n" +
      'declare module "buffer" {\n  global { var Buffer: BufferConstructor; interface BufferConstructor {} }\n' +
      "  export const constants: number;\n}\n",
  );
  const module = parse(
    "timers.d.ts",
    "export function ownExport(): void;\ndeclare global { function setInterval(f: () => void): number; type Tick = 1 }\n",
  );
  assert.deepEqual(globalDeclarationNames(ts, [script, module]), [
    "Buffer",
    "BufferConstructor",
    "ErrorConstructor",
    "NodeJS",
    "Tick",
    "process",
    "setInterval",
    "setTimeout",
  ]);
});

test("global names of the installed @types/node hold what cells use of Node, and no plain ES global", () => {
  const sources = prepareKernelSources(root);
  assert.ok(sources.dir, sources.diagnostics.join("\n"));
  const names = new Set(sources.nodeGlobals);
  for (const name of ["process", "console", "Buffer", "setTimeout", "require", "NodeJS", "URL", "performance"]) {
    assert.ok(names.has(name), `${name} is missing`);
  }
  for (const name of ["Promise", "Math", "Map", "JSON", "Object"]) assert.ok(!names.has(name), `${name} is not Node's`);
});

test("a notebook needs @types/node when it imports a package or names a Node global anywhere", () => {
  const globals = new Set(["process", "console", "NodeJS", "setTimeout"]);
  const needs = (code: string) => needsNodeTypes([code], globals);
  assert.equal(needs('import { table } from "./src/notebook/display";\ntable([]);'), false);
  assert.equal(needs('const m = await import("../src/x");'), false);
  assert.equal(needs('const name = "process"; // a string or a comment is not a use'), false);
  assert.equal(needs('import fs from "fs";'), true);
  assert.equal(needs('import { readFileSync } from "node:fs";'), true);
  assert.equal(needs('const m = require("os");'), true);
  assert.equal(needs("const m = await import(name);"), true);
  assert.equal(needs("console.log(1)"), true);
  assert.equal(needs("let t: NodeJS.Timeout;"), true);
  assert.equal(needs("const o = { setTimeout: 1 };"), true);
  // A template literal does not hide what follows it (a token scanner without the parser would lose its place).
  assert.equal(needs("const y = `a ${1} b`;\nprocess.exit(0);"), true);
  assert.equal(needsNodeTypes(["const a = 1;", "console.log(a)"], globals), true);
});

test("a look at the words clears a cell only when the parse would clear it too", () => {
  const globals = new Set(["process", "console", "NodeJS", "setTimeout", "require"]);
  const cells = [
    'import { table } from "./src/notebook/display";\ntable([]);',
    'import {\n  a,\n  b,\n} from "../src/study/index";\nconst c = a + b;',
    'import type { T } from "./src/x";\nlet t: T;',
    'import { process } from "./src/x";\nprocess();',
    'import { a } from "./src/x"; process.exit(0);',
    'const m = await import("../src/x");',
    'const name = "process"; // a string or a comment is not a use',
    'import fs from "fs";',
    'import "./src/x";',
    'export { a } from "./src/x";',
    'const m = require("./src/x");',
    "const m = await import(name);",
    "const \\u0070rocess = 1;\n\\u0070rocess;",
    "const o = { setTimeout: 1 };",
    "const y = `a ${1} b`;\nprocess.exit(0);",
    "const y = 1; // nothing of Node's",
    'md(`import { a } from "x"`)',
  ];
  const cleared = cells.filter((code) => plainlyClear(code, globals));
  for (const code of cleared) assert.equal(needsNodeTypes([code], globals), false, code);
  // What the look clears: every cell with nothing of Node's but a string or comment naming a global.
  assert.deepEqual(cleared, [cells[0], cells[1], cells[2], "const y = 1; // nothing of Node's"]);
});

test("a kernel without Node's types gets an empty @types/node and nothing else; with them, the packages", () => {
  const temp = mkdtempSync(join(tmpdir(), "seamlab-link-"));
  try {
    const packages = join(temp, "node_modules");
    for (const name of ["a", "@types/node", "@types/estree"]) mkdirSync(join(packages, name), { recursive: true });
    makeKernelNodeModules(packages, join(temp, "k1"), false);
    makeKernelNodeModules(packages, join(temp, "k2"), true);
    assert.deepEqual(readdirSync(join(temp, "k1")), ["@types"]);
    assert.deepEqual(readdirSync(join(temp, "k1", "@types")), ["node"]);
    assert.equal(readFileSync(join(temp, "k1", "@types", "node", "index.d.ts"), "utf8"), "export {};\n");
    assert.equal(realpathSync(join(temp, "k2")), realpathSync(packages));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
});

test("every shipped notebook runs without @types/node (they use the display helpers, not Node)", () => {
  const names = new Set(prepareKernelSources(root).nodeGlobals);
  const dir = join(root, "notebooks");
  const notebooks = readdirSync(dir).filter((name) => name.endsWith(".ipynb"));
  assert.ok(notebooks.length >= 7);
  for (const name of notebooks) {
    const notebook = JSON.parse(readFileSync(join(dir, name), "utf8")) as {
      cells: { cell_type: string; source: string[] | string }[];
    };
    const codes = notebook.cells
      .filter((cell) => cell.cell_type === "code")
      .map((cell) => (Array.isArray(cell.source) ? cell.source.join("") : cell.source));
    assert.equal(needsNodeTypes(codes, names), false, `${name} names something of Node's`);
    // and decided by a look at the words, so the report does not load TypeScript for it
    for (const code of codes) assert.ok(plainlyClear(code, names), `${name}: a cell needs the parse:\n${code}`);
  }
});

test("a kernel without @types/node runs project code and checks cells, and knows no Node global", async () => {
  const sources = prepareKernelSources(root);
  assert.ok(sources.dir, sources.diagnostics.join("\n"));
  const text = (outcome: { messages: { content: unknown }[] }) =>
    JSON.stringify(outcome.messages.map((message) => message.content));
  const run = async (nodeTypes: boolean, cells: string[]) => {
    const kernel = await TslabKernel.start(root, { nodeTypes });
    kernel.useSources(join(sources.dir!, "src"));
    try {
      const outcomes = [];
      for (const cell of cells) outcomes.push(await kernel.execute(cell, 120_000));
      return outcomes;
    } finally {
      await kernel.shutdown();
    }
  };
  const importCell = 'import { sha256 } from "./src/experiment/cache";\nsha256("a").slice(0, 8)';
  const timerCell = "const timer = setTimeout;";
  // A failed cell aborts the ones queued after it: each failure gets its own kernel.
  const [imported, wrong] = await run(false, [importCell, "sha256(42)"]);
  const [timer] = await run(false, [timerCell]);
  assert.equal(imported.status, "ok", text(imported));
  assert.match(text(imported), /ca978112/);
  assert.equal(wrong.status, "error");
  assert.match(text(wrong), /Argument of type 'number' is not assignable to parameter of type 'string'/);
  assert.equal(timer.status, "error", "setTimeout should be unknown without @types/node");
  assert.match(text(timer), /Cannot find name 'setTimeout'/);
  // The same cell with the declarations (what any notebook naming setTimeout gets).
  const [withTypes] = await run(true, [timerCell]);
  assert.equal(withTypes.status, "ok", text(withTypes));
});

test("when no compiled copy lands, a kernel started without @types/node is restarted with them", async () => {
  // src/ with a type error under tslab (no copy), and a module the notebook imports that needs Node's types: tslab
  // compiles it in the kernel, which fails without @types/node ("Cannot find name 'process'").
  const dir = mkdtempSync(join(tmpdir(), "seamlab-node-types-"));
  try {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write("package.json", JSON.stringify({ name: "seamlab", type: "module" }));
    write("src/core/env.ts", 'export const pid = (): string => typeof process.pid === "number" ? "pid" : "?";\n');
    write("src/study/broken.ts", "export const n: number = 'not a number';\n");
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
    const notebook = codeNotebook('import { pid } from "./src/core/env";\npid()');
    const compiledSources = startKernelSources(dir);
    const result = await runNotebook(notebook, { root: dir, compiledSources, hideNodeTypes: true });
    assert.equal((await compiledSources.ready).dir, undefined, "the broken source should leave no copy");
    assert.equal(result.ok, true, JSON.stringify(result.failed));
    const cell = result.notebook.cells[0];
    assert.ok(cell.cell_type === "code");
    assert.deepEqual(cell.outputs, [{ output_type: "stream", name: "stdout", text: "pid\n" }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the names are known at once when the copy exists, and before the copy when it is being built", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-node-globals-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "seamlab", type: "module" }));
    mkdirSync(join(dir, "src", "core"), { recursive: true });
    writeFileSync(join(dir, "src", "core", "a.ts"), "export const a = 1;\n");
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
    const building = startKernelSources(dir);
    // The worker parses @types/node first: the kernels hear its names before the copy is built.
    const heard: string[] = [];
    void building.nodeGlobals.then(() => heard.push("names"));
    assert.ok((await building.ready.finally(() => heard.push("copy"))).dir);
    assert.deepEqual(heard, ["names", "copy"]);
    const names = await building.nodeGlobals;
    assert.ok(names?.includes("process"));
    const reused = startKernelSources(dir);
    const now = await Promise.race([reused.nodeGlobals, new Promise((resolve) => setImmediate(resolve, "later"))]);
    assert.deepEqual(now, names);
    assert.equal((await reused.ready).reused, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
