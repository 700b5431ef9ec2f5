import { setMaxListeners } from "node:events";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import type { GridPlan } from "./plan";
import { computeTaskRows, type GridRow, type RowOptions, type SweepInputs } from "./rows";
import { taskClock } from "./thread-times";
import { ensureBuilt } from "../build/ensure-built.cjs";
import { builtThreadExecArgv } from "./thread-exec-argv";
import { mergeDocSetup, setupRanges, setupTermsFit, usesDefaultBm25, type DocSetup } from "./doc-setup";
import {
  encodeInputs,
  type RowTask,
  type RowTaskResult,
  type SetupTask,
  type SetupTaskResult,
  type TaskError,
  type TaskTiming,
} from "./worker";

export type { TaskTiming };
type SetupDone = Extract<SetupTaskResult, { part: unknown }>;

interface ExecuteOptions {
  /** 0 runs every task in this thread. */
  workers: number;
  keepWorkers: boolean;
  signal?: AbortSignal;
  rowOptions: RowOptions;
  /** Names the inputs for the worker threads' per-corpus caches. */
  inputsId: string;
  onSetup?: (timing: TaskTiming) => void;
}

/**
 * Each worker's young generation in MB (a third per semi-space; V8's default is 16 MB semi-spaces). 256 MB
 * semi-spaces cut 2 workers' CPU on bench:workers' grid by about 1 s of 17.8, for about 120-150 MB more peak RSS.
 */
const WORKER_YOUNG_GENERATION_MB = 768;

// Kept pools by thread count. Typed loosely: piscina is imported lazily.
interface Pool {
  run(task: unknown, options: { signal: AbortSignal }): Promise<unknown>;
  destroy(): Promise<void>;
}
const keptPools = new Map<number, Pool>();
// The documents' setup a kept pool last built.
const keptSetups = new WeakMap<Pool, { inputsId: string; setup: DocSetup }>();

async function workerPool(threads: number, keep: boolean): Promise<Pool> {
  const kept = keep ? keptPools.get(threads) : undefined;
  if (kept) return kept;
  const { Piscina } = await import("piscina");
  const built = await ensureBuilt(projectRoot());
  const execArgv = built === undefined ? undefined : builtThreadExecArgv();
  // Without a build, worker-entry.mjs registers tsx and loads worker.ts.
  const entry = built?.worker ?? join(projectRoot(), "src", "experiment", "worker-entry.mjs");
  const pool: Pool = new Piscina({
    filename: pathToFileURL(entry).href,
    name: "runTask",
    ...(execArgv !== undefined ? { execArgv } : {}),
    // No resident threads: they start as tasks queue up and exit after a minute idle, freeing their caches.
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 60_000,
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  if (keep) keptPools.set(threads, pool);
  return pool;
}

/** Stops the worker threads kept between runGrid calls. */
export async function closeWorkers(): Promise<void> {
  const pools = [...keptPools.values()];
  keptPools.clear();
  await Promise.all(pools.map((pool) => pool.destroy()));
}

/**
 * Computes the plan's tasks, in this thread or on a pool, handing each to `accept` as it lands; the first failing
 * task cancels the rest and is thrown (unless the caller aborted).
 */
export async function executePlan(
  inputs: SweepInputs,
  plan: GridPlan,
  options: ExecuteOptions,
  accept: (indexes: number[], rows: GridRow[], timing: TaskTiming) => void,
): Promise<void> {
  const { tasks } = plan;
  const aborted = () => options.signal?.aborted === true;
  const configsOf = (indexes: number[]) => indexes.map((i) => plan.configs[i]);
  const keysOf = (indexes: number[]) => indexes.map((i) => plan.keys[i]);
  if (tasks.length === 0) return;
  if (options.workers === 0) {
    for (const indexes of tasks) {
      if (aborted()) break;
      const clock = taskClock();
      const computed = await computeTaskRows(inputs, configsOf(indexes), keysOf(indexes), options.rowOptions);
      accept(indexes, computed, { thread: 0, ...clock.stop() });
    }
    return;
  }
  const pool = await workerPool(options.workers, options.keepWorkers);
  const shared = { inputsId: options.inputsId, inputs: encodeInputs(inputs) };
  const runOnPool = async <T>(task: RowTask | SetupTask): Promise<T> => {
    const result = (await pool.run(task, { signal: cancel.signal })) as T & { error?: TaskError };
    const error = result.error;
    if (error) throw error.seamlab ? new SeamlabError(error.message) : new Error(error.message + "\n" + error.stack);
    return result;
  };
  // One signal for the caller's Ctrl-C and for "a task failed, cancel the rest".
  const cancel = new AbortController();
  setMaxListeners(tasks.length + 10, cancel.signal); // piscina listens once per queued task
  const onAbort = () => cancel.abort();
  options.signal?.addEventListener("abort", onAbort);
  if (aborted()) cancel.abort();
  let firstError: unknown;
  const fail = (error: unknown) => {
    if (!cancel.signal.aborted) {
      firstError = error;
      cancel.abort(); // one failing config fails the grid
    }
  };
  try {
    // The documents' setup first, one share per thread (see doc-setup); a sampled run builds its own.
    let setup: DocSetup | undefined;
    const terms = setupTermsFit(inputs.docs, usesDefaultBm25(configsOf(tasks.flat())));
    // A kept pool keeps the setup of its latest inputs: a notebook calling runGrid again on the same corpus reuses it.
    const known = keptSetups.get(pool);
    if (known && known.inputsId === options.inputsId && (known.setup.terms !== undefined || !terms))
      setup = known.setup;
    else if (!inputs.sample) {
      const ranges = setupRanges(inputs.docs, Math.min(options.workers, tasks.length));
      const parts = await Promise.all(
        ranges.map(([from, to]) => runOnPool<SetupDone>({ ...shared, kind: "setup", from, to, terms }).catch(fail)),
      );
      if (parts.every((part): part is SetupDone => part !== undefined)) {
        setup = mergeDocSetup(
          parts.map((result) => result.part),
          inputs.docs.length,
        );
        for (const { part: _part, ...timing } of parts) options.onSetup?.(timing);
        if (options.keepWorkers) keptSetups.set(pool, { inputsId: options.inputsId, setup });
      }
    }
    await Promise.all(
      tasks.map(async (indexes) => {
        if (cancel.signal.aborted) return;
        const task: RowTask = {
          ...shared,
          configs: configsOf(indexes),
          keys: keysOf(indexes),
          options: options.rowOptions,
          setup,
        };
        try {
          const { rows, ...timing } = await runOnPool<Extract<RowTaskResult, { rows: unknown }>>(task);
          accept(indexes, rows, timing);
        } catch (error) {
          fail(error);
        }
      }),
    );
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    if (!options.keepWorkers) await pool.destroy();
  }
  if (firstError !== undefined && !aborted()) throw firstError;
}
