import { setMaxListeners } from "node:events";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import type { GridPlan } from "./plan";
import { computeTaskRows, type GridRow, type RowOptions, type SweepInputs } from "./rows";
import { threadCpuMs } from "./thread-times";
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

export interface ExecuteOptions {
  /** Worker threads; 0 runs every task in this thread. */
  workers: number;
  /** Keep the pool for the next call (see RunGridOptions.keepWorkers). */
  keepWorkers: boolean;
  /** Stops scheduling and cancels running tasks. */
  signal?: AbortSignal;
  rowOptions: RowOptions;
  /** Names the inputs for the worker threads' per-corpus caches (corpus and query hashes). */
  inputsId: string;
  /** Told when and where each share of the documents' setup was computed (worker threads only). */
  onSetup?: (timing: TaskTiming) => void;
}

/** Receives one finished task: its config indexes, their rows (same order) and when and where it ran. */
export type AcceptTask = (indexes: number[], rows: GridRow[], timing: TaskTiming) => void;

/**
 * The TypeScript worker entry: a small .mjs that registers tsx, then loads worker.ts. Pools start from src/ built as
 * JavaScript instead (build/ensure-built.cjs), and from this file only when the build cannot be made.
 */
export function workerEntryFile(): string {
  return join(projectRoot(), "src", "experiment", "worker-entry.mjs");
}

/**
 * Each worker thread's young generation, in MB (V8 makes each of its two semi-spaces a third of it; its default is
 * 16 MB semi-spaces). A study-grid sweep allocates about 9 GB of short-lived objects; on 2 workers the default
 * took about 500 scavenges, 64 MB semi-spaces (192 MB) about 150, and every scavenge's helper threads compete with
 * the other worker for the cores. 256 MB semi-spaces (768 MB) cut one worker's scavenges on bench:workers' grid
 * from 80 to 54 and the data they copy from 410 to 290 MB, and 2 workers' CPU by about 1 s of 17.8 (three runs each;
 * 384 MB gave about 0.9 s). The price: the process's peak RSS went up by about 120-150 MB (semi-spaces grow only
 * as a sweep fills them).
 */
export const WORKER_YOUNG_GENERATION_MB = 768;

// Kept pools by thread count (see RunGridOptions.keepWorkers). Typed loosely: piscina is imported lazily.
interface Pool {
  run(task: unknown, options: { signal: AbortSignal }): Promise<unknown>;
  destroy(): Promise<void>;
}
const keptPools = new Map<number, Pool>();
// The documents' setup a kept pool last built, by pool (it goes with the pool).
const keptSetups = new WeakMap<Pool, { inputsId: string; setup: DocSetup }>();

async function workerPool(threads: number, keep: boolean): Promise<Pool> {
  const kept = keep ? keptPools.get(threads) : undefined;
  if (kept) return kept;
  const { Piscina } = await import("piscina");
  const built = await ensureBuilt(projectRoot());
  const execArgv = built === undefined ? undefined : builtThreadExecArgv();
  const pool: Pool = new Piscina({
    filename: pathToFileURL(built?.worker ?? workerEntryFile()).href,
    name: "runTask",
    // The build is plain JavaScript: its threads skip the TypeScript loader the process may have been started with.
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
 * Computes the plan's tasks, in this thread or on a worker pool, handing each finished task to `accept` as it
 * lands. Stops scheduling when the signal aborts; the first failing task cancels the rest and is thrown (unless
 * the caller aborted).
 */
export async function executePlan(
  inputs: SweepInputs,
  plan: GridPlan,
  options: ExecuteOptions,
  accept: AcceptTask,
): Promise<void> {
  const { configs, keys, tasks } = plan;
  const aborted = () => options.signal?.aborted === true;
  if (tasks.length === 0) return;
  if (options.workers === 0) {
    for (const indexes of tasks) {
      if (aborted()) break;
      const startedAt = performance.timeOrigin + performance.now();
      const taskStarted = performance.now();
      const cpu0 = threadCpuMs();
      const computed = await computeTaskRows(
        inputs,
        indexes.map((i) => configs[i]),
        indexes.map((i) => keys[i]),
        options.rowOptions,
      );
      const cpu1 = threadCpuMs();
      const cpuMs = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
      accept(indexes, computed, { thread: 0, startedAt, ms: performance.now() - taskStarted, cpuMs });
    }
    return;
  }
  const pool = await workerPool(options.workers, options.keepWorkers);
  const shared = encodeInputs(inputs);
  const runOnPool = async <T>(task: RowTask | SetupTask): Promise<T> => {
    const result = (await pool.run(task, { signal: cancel.signal })) as T | { error: TaskError };
    if (typeof result === "object" && result !== null && "error" in result) {
      const error = (result as { error: TaskError }).error;
      throw error.seamlab ? new SeamlabError(error.message) : new Error(error.message + "\n" + error.stack);
    }
    return result as T;
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
    // The documents' setup first, one share per thread, merged and shared with every row task (see doc-setup). A
    // sampled run measures other documents' pairs and tokens, so it builds its own as before.
    let setup: DocSetup | undefined;
    const terms = setupTermsFit(
      inputs.docs,
      usesDefaultBm25(tasks.flatMap((indexes) => indexes.map((i) => configs[i]))),
    );
    // A kept pool keeps the setup of its latest inputs: a notebook calling runGrid again on the same corpus reuses it.
    const known = keptSetups.get(pool);
    if (known && known.inputsId === options.inputsId && (known.setup.terms !== undefined || !terms))
      setup = known.setup;
    else if (!inputs.sample) {
      const ranges = setupRanges(inputs.docs, Math.min(options.workers, tasks.length));
      const parts = await Promise.all(
        ranges.map(([from, to]) =>
          runOnPool<Extract<SetupTaskResult, { part: unknown }>>({
            kind: "setup",
            inputsId: options.inputsId,
            inputs: shared,
            from,
            to,
            terms,
          }).catch((error) => void fail(error)),
        ),
      );
      if (parts.every((part) => part !== undefined)) {
        setup = mergeDocSetup(
          parts.map((result) => (result as Extract<SetupTaskResult, { part: unknown }>).part),
          inputs.docs.length,
        );
        for (const { part: _part, ...timing } of parts as Extract<SetupTaskResult, { part: unknown }>[])
          options.onSetup?.(timing);
        if (options.keepWorkers) keptSetups.set(pool, { inputsId: options.inputsId, setup });
      }
    }
    await Promise.all(
      tasks.map(async (indexes) => {
        if (cancel.signal.aborted) return;
        const task: RowTask = {
          inputsId: options.inputsId,
          inputs: shared,
          configs: indexes.map((i) => configs[i]),
          keys: indexes.map((i) => keys[i]),
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
