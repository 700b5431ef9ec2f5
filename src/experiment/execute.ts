import { setMaxListeners } from "node:events";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import type { GridPlan } from "./plan";
import { computeTaskRows, type GridRow, type RowOptions, type SweepInputs } from "./rows";
import { threadCpuMs } from "./thread-times";
import { encodeInputs, type RowTask, type RowTaskResult } from "./worker";

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
}

/** When and where a task ran: its thread (0 = the calling thread), start (epoch ms) and duration in ms. */
export interface TaskTiming {
  thread: number;
  startedAt: number;
  ms: number;
  /** CPU ms of the task's thread during the task, where the platform tells (Linux). */
  cpuMs?: number;
  /** CPU ms the worker thread used before its first task (start-up), on its first task only. */
  bootCpuMs?: number;
  /** The worker thread's kernel id (Linux), to read its scheduler times (thread-times). */
  osThread?: number;
}

/** Receives one finished task: its config indexes, their rows (same order) and when and where it ran. */
export type AcceptTask = (indexes: number[], rows: GridRow[], timing: TaskTiming) => void;

/** Default worker entry: a small .mjs that registers tsx, then loads worker.ts. */
export function workerEntryFile(): string {
  return join(projectRoot(), "src", "experiment", "worker-entry.mjs");
}

/**
 * Each worker thread's young generation, in MB (V8 makes each of its two semi-spaces a third of it; its default is
 * 16 MB semi-spaces). A study-grid sweep allocates about 9 GB of short-lived objects; on 2 workers the default
 * took about 500 scavenges, 64 MB semi-spaces about 150, and every scavenge's helper threads compete with the
 * other worker for the cores. The price: up to about 180 MB more resident memory per worker thread while it sweeps.
 */
export const WORKER_YOUNG_GENERATION_MB = 192;

// Kept pools by thread count (see RunGridOptions.keepWorkers). Typed loosely: piscina is imported lazily.
interface Pool {
  run(task: unknown, options: { signal: AbortSignal }): Promise<unknown>;
  destroy(): Promise<void>;
}
const keptPools = new Map<number, Pool>();

async function workerPool(threads: number, keep: boolean): Promise<Pool> {
  const kept = keep ? keptPools.get(threads) : undefined;
  if (kept) return kept;
  const { Piscina } = await import("piscina");
  const pool: Pool = new Piscina({
    filename: pathToFileURL(workerEntryFile()).href,
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
  // One signal for the caller's Ctrl-C and for "a task failed, cancel the rest".
  const cancel = new AbortController();
  setMaxListeners(tasks.length + 10, cancel.signal); // piscina listens once per queued task
  const onAbort = () => cancel.abort();
  options.signal?.addEventListener("abort", onAbort);
  if (aborted()) cancel.abort();
  let firstError: unknown;
  try {
    await Promise.all(
      tasks.map(async (indexes) => {
        const task: RowTask = {
          inputsId: options.inputsId,
          inputs: shared,
          configs: indexes.map((i) => configs[i]),
          keys: indexes.map((i) => keys[i]),
          options: options.rowOptions,
        };
        try {
          const result = (await pool.run(task, { signal: cancel.signal })) as RowTaskResult;
          if ("error" in result) {
            throw result.error.seamlab
              ? new SeamlabError(result.error.message)
              : new Error(result.error.message + "\n" + result.error.stack);
          }
          const { rows, ...timing } = result;
          accept(indexes, rows, timing);
        } catch (error) {
          if (!cancel.signal.aborted) {
            firstError = error;
            cancel.abort(); // one failing config fails the grid
          }
        }
      }),
    );
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    if (!options.keepWorkers) await pool.destroy();
  }
  if (firstError !== undefined && !aborted()) throw firstError;
}
