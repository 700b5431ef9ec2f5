import { test } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { loadCorpus } from "../../src/corpus/load";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { normalizeConfig } from "../../src/experiment/grid";
import { computeTaskRows, type SweepInputs } from "../../src/experiment/rows";
import { encodeInputs, type RowTask, type RowTaskResult } from "../../src/experiment/worker";
import { builtThreadExecArgv } from "../../src/experiment/thread-exec-argv";
import { ensureBuilt } from "../../src/build/ensure-built.cjs";
import { projectRoot } from "../../src/core/project";
import { fastifyGuides } from "../helpers/corpora";

const set = buildHeaderQueries(loadCorpus(fastifyGuides).docs);
const inputs: SweepInputs = { docs: set.docs, queries: set.queries };

test("the built worker's task computes the same rows as the TypeScript modules, LangChain and a library included", async () => {
  const built = await ensureBuilt(projectRoot());
  assert.ok(built !== undefined, "esbuild is a dependency: the build is made");
  const { runTask } = (await import(pathToFileURL(built.worker).href)) as {
    runTask: (task: RowTask) => Promise<RowTaskResult>;
  };
  const configs = [
    normalizeConfig({ splitter: { splitter: "langchain", size: 400, overlap: 50 }, retrieval: { k: 5 } }),
    normalizeConfig({ splitter: { splitter: "tokens", size: 100, overlap: 20, unit: "tokens" }, retrieval: { k: 5 } }),
    normalizeConfig({ splitter: { splitter: "mastra-recursive", size: 400, overlap: 0 }, retrieval: { k: 3 } }),
  ];
  const keys = configs.map((_, i) => `key-${i}`);
  const bundled = await runTask({ inputsId: "bundle-test", inputs: encodeInputs(inputs), configs, keys, options: {} });
  assert.ok("rows" in bundled, "error" in bundled ? bundled.error.message : "no rows");
  const direct = await computeTaskRows(inputs, configs, keys, {});
  assert.equal(JSON.stringify(bundled.rows), JSON.stringify(direct));
  assert.equal(bundled.rows.length, 3);
});

test("threads loading the build drop the modules tsx preloads and keep the other options a thread accepts", () => {
  const tsx = [
    "--require",
    "/app/node_modules/tsx/dist/preflight.cjs",
    "--import",
    "file:///app/node_modules/tsx/dist/loader.mjs",
  ];
  assert.deepEqual(builtThreadExecArgv(tsx), []);
  assert.deepEqual(
    builtThreadExecArgv([
      "--import=tsx",
      "--loader",
      "tsx/esm",
      "-r",
      "C:\\app\\node_modules\\tsx\\dist\\preflight.cjs",
    ]),
    [],
  );
  const others = [
    "--import",
    "file:///app/src/report/kernel-watchdog.mjs",
    "--require",
    "./tsxish.cjs",
    "--no-warnings",
  ];
  assert.deepEqual(builtThreadExecArgv([...tsx.slice(0, 2), ...others, ...tsx.slice(2)]), others);
  assert.deepEqual(
    builtThreadExecArgv(["--conditions", "tsx", ...tsx]),
    ["--conditions", "tsx"],
    "a condition is no preload",
  );
});

test("threads inherit the process's options when tsx preloads nothing or an option is not one a thread accepts", () => {
  assert.equal(builtThreadExecArgv([]), undefined);
  assert.equal(builtThreadExecArgv(["--import", "file:///app/src/report/kernel-watchdog.mjs"]), undefined);
  // V8's flags and the process's options make `new Worker` throw when passed explicitly.
  assert.equal(builtThreadExecArgv(["--max-old-space-size=4096", "--import", "tsx"]), undefined);
  assert.equal(builtThreadExecArgv(["--import", "tsx", "--title", "x"]), undefined);
  assert.equal(builtThreadExecArgv(["--import", "tsx", "--import"]), undefined, "a dangling option is left to node");
});

test("a pool thread accepts the options kept for it (new Worker throws on V8 flags in execArgv)", async () => {
  const execArgv = builtThreadExecArgv(["--no-warnings", "--import", "tsx"]) as string[];
  const worker = new Worker("require('node:worker_threads').parentPort.postMessage(process.execArgv)", {
    eval: true,
    execArgv,
  });
  const [seen] = (await once(worker, "message")) as [string[]];
  assert.deepEqual(seen, ["--no-warnings"]);
  assert.throws(() => new Worker("0", { eval: true, execArgv: ["--max-old-space-size=64"] }), {
    code: "ERR_WORKER_INVALID_EXEC_ARGV",
  });
});
