// src/ is compiled once for the report's kernels (src/build/kernels/copy.ts) and the kernels load that copy
// (its ./src linked to the copy: kernel.ts useSources): the copy must hold what tslab would have compiled, be keyed by every
// input, land whole, and leave anything it did not write alone; a kernel must run and type-check cells against it.
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  compileKernelSources,
  kernelSourcesDir,
  kernelSourcesKey,
  notebookSourceFiles,
  prepareKernelSources,
  startKernelSources,
} from "../../../src/build/kernels/copy";
import { pruneBuilds } from "../../../src/build/land.cjs";
import { TslabKernel } from "../../../src/report/kernel";
import { tempProject } from "../../helpers/temp-project";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const ts = createRequire(join(root, "node_modules", "tslab", "package.json"))("@tslab/typescript-for-tslab");

/** A small project: two notebook-reachable modules, a worker script beside them, and a report module; removed after
 * the test `t`. */
function fakeProject(t: TestContext): string {
  const dir = tempProject("seamlab-kernel-src-", {
    "package.json": JSON.stringify({ name: "seamlab", type: "module" }),
    "src/core/add.ts": "export interface Pair { a: number; b: number }\nexport const add = (p: Pair) => p.a + p.b;\n",
    "src/study/use.ts": 'import { add } from "../core/add";\nexport function three() { return add({ a: 1, b: 2 }); }\n',
    "src/study/worker.mjs": "export const plain = 1;\n",
    "src/report/page.ts": "export const page = import.meta.url;\n",
    "src/build/land.cjs": "module.exports = {};\n",
    "src/build/kernels/copy.ts": "export const copy = import.meta.url;\n",
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("the compiled copy covers every notebook-reachable file of src/ and nothing of report/, cli/ or build/kernels/", (t) => {
  const dir = fakeProject(t);
  const names = notebookSourceFiles(dir).map((path) => path.slice(dir.length + 1));
  assert.deepEqual(names, ["src/build/land.cjs", "src/core/add.ts", "src/study/use.ts", "src/study/worker.mjs"]);
});

test("the key changes with a notebook-reachable source, tslab's TypeScript or the lockfile, not with report/", (t) => {
  const dir = fakeProject(t);
  const key = kernelSourcesKey(dir, { version: "5.0.4" });
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.equal(kernelSourcesKey(dir, { version: "5.0.4" }), key);
  assert.notEqual(kernelSourcesKey(dir, { version: "5.0.5" }), key);
  writeFileSync(join(dir, "src/report/page.ts"), "export const page = 2;\n");
  assert.equal(kernelSourcesKey(dir, { version: "5.0.4" }), key);
  writeFileSync(join(dir, "package-lock.json"), "{}");
  const withLock = kernelSourcesKey(dir, { version: "5.0.4" });
  assert.notEqual(withLock, key);
  writeFileSync(join(dir, "src/study/worker.mjs"), "export const plain = 2;\n");
  assert.notEqual(kernelSourcesKey(dir, { version: "5.0.4" }), withLock);
});

test("compiled modules are CommonJS in tslab's sloppy mode, with declarations and the plain files beside them", (t) => {
  const dir = fakeProject(t);
  const out = join(dir, "out");
  assert.deepEqual(compileKernelSources(dir, out, ts), []);
  const js = readFileSync(join(out, "src/study/use.js"), "utf8");
  assert.match(js, /require\("\.\.\/core\/add"\)/);
  assert.doesNotMatch(js, /use strict/);
  assert.match(readFileSync(join(out, "src/core/add.d.ts"), "utf8"), /export interface Pair/);
  assert.match(readFileSync(join(out, "src/study/use.d.ts"), "utf8"), /export declare function three\(\): number;/);
  assert.equal(readFileSync(join(out, "src/study/worker.mjs"), "utf8"), "export const plain = 1;\n");
  assert.deepEqual(JSON.parse(readFileSync(join(out, "package.json"), "utf8")), { type: "commonjs" });
  assert.equal(existsSync(join(out, "src/report")), false);
  assert.equal(existsSync(join(out, "src/build/kernels")), false);
  assert.equal(readFileSync(join(out, "src/build/land.cjs"), "utf8"), "module.exports = {};\n");
  // The compiled module runs as CommonJS.
  assert.equal(createRequire(join(out, "src", "x.js"))("./study/use.js").three(), 3);
});

test("a type error under tslab's TypeScript means no copy, and names the file and line", (t) => {
  const dir = fakeProject(t);
  const out = join(dir, "out");
  writeFileSync(join(dir, "src/study/use.ts"), 'import { add } from "../core/add";\nexport const x = add(1);\n');
  const diagnostics = compileKernelSources(dir, out, ts);
  assert.equal(diagnostics.length, 1);
  assert.match(diagnostics[0], /^src\/study\/use\.ts:2 Argument of type 'number'/);
  assert.equal(existsSync(out), false);
});

test("a copy is built once, reused after, and copies of other sources are pruned to the newest two", (t) => {
  const dir = fakeProject(t);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  const parent = kernelSourcesDir(dir);
  mkdirSync(parent, { recursive: true });
  // Not ours, or still being written by a live process: left alone. A dead process's temp folder: removed.
  const foreign = join(parent, "notes.txt");
  writeFileSync(foreign, "keep");
  const liveTemp = join(parent, `.${"a".repeat(64)}.${process.pid}.tmp`);
  const deadTemp = join(parent, `.${"b".repeat(64)}.999999999.tmp`);
  mkdirSync(liveTemp);
  mkdirSync(deadTemp);
  const first = prepareKernelSources(dir);
  assert.equal(first.reused, false);
  assert.ok(first.dir && existsSync(join(first.dir, "src/study/use.js")));
  const again = prepareKernelSources(dir);
  assert.deepEqual([again.reused, again.dir], [true, first.dir]);
  const dirs = [first.dir];
  for (const n of [4, 5, 6]) {
    writeFileSync(join(dir, "src/study/worker.mjs"), `export const plain = ${n};\n`);
    dirs.push(prepareKernelSources(dir).dir!);
  }
  const kept = readdirSync(parent).sort();
  const expected = [
    ...dirs.slice(1).map((d) => d.slice(parent.length + 1)),
    "notes.txt",
    liveTemp.slice(parent.length + 1),
  ];
  assert.deepEqual(kept, expected.sort());
  pruneBuilds(parent, "", "", { keep: 2, unusedMs: 0 });
  assert.ok(existsSync(foreign));
});

test("a copy built in a worker thread is named before it exists and is in place once ready settles", async (t) => {
  const dir = fakeProject(t);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  const pending = startKernelSources(dir);
  assert.equal(pending.dir, join(kernelSourcesDir(dir), kernelSourcesKey(dir)));
  const sources = await pending.ready;
  assert.deepEqual([sources.dir, sources.reused, sources.diagnostics], [pending.dir, false, []]);
  assert.ok(existsSync(join(pending.dir, "src/study/use.js")));
});

test("a kernel started on the compiled copy loads it, and still refuses a cell with a type error", async () => {
  const sources = prepareKernelSources(root);
  assert.ok(sources.dir, sources.diagnostics.join("\n"));
  const kernel = await TslabKernel.start(root);
  kernel.useSources(join(sources.dir!, "src"));
  try {
    const text = (outcome: { messages: { content: unknown }[] }) =>
      JSON.stringify(outcome.messages.map((message) => message.content));
    const imported = await kernel.execute(
      'import { sha256 } from "./src/experiment/cache";\n' +
        "const loaded = Object.keys(require.cache).filter((f) => f.includes('/experiment/cache.')).join(' ');\n" +
        "`${sha256('a').slice(0, 8)} ${loaded}`",
      120_000,
    );
    assert.equal(imported.status, "ok", text(imported));
    assert.match(text(imported), new RegExp(`ca978112 ${sources.dir}/src/experiment/cache\\.js`));
    const wrong = await kernel.execute("sha256(42)", 60_000);
    assert.equal(wrong.status, "error");
    assert.match(text(wrong), /Argument of type 'number' is not assignable to parameter of type 'string'/);
  } finally {
    await kernel.shutdown();
  }
});
