import { threadId } from "node:worker_threads";
import type { Doc, Query } from "../core/types";
import type { ExperimentConfig } from "./grid";
import { computeTaskRows, type GridRow, type RowOptions, type SweepInputs } from "./rows";
import { osThreadId, threadCpuMs } from "./thread-times";

/**
 * The unit of work sent to a worker thread: configs that are best computed in one thread (one splitter
 * config, or several that share an expensive warm-up; see run.ts). The corpus and
 * queries travel once per worker as UTF-8 JSON in a SharedArrayBuffer (zero-copy to every worker) and are
 * decoded once per worker, keyed by `inputsId`.
 */
export interface RowTask {
  inputsId: string;
  inputs: SharedArrayBuffer;
  configs: ExperimentConfig[];
  keys: string[];
  options: RowOptions;
}

export function encodeInputs(inputs: SweepInputs): SharedArrayBuffer {
  const bytes = Buffer.from(
    JSON.stringify({ docs: inputs.docs, queries: inputs.queries, sample: inputs.sample }),
    "utf8",
  );
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  return shared;
}

const decoded = new Map<string, SweepInputs>();

function inputsOf(task: RowTask): SweepInputs {
  let inputs = decoded.get(task.inputsId);
  if (!inputs) {
    const parsed = JSON.parse(Buffer.from(task.inputs).toString("utf8")) as SweepInputs & {
      docs: Doc[];
      queries: Query[];
    };
    inputs = parsed;
    // A worker serves one sweep at a time in practice; keep the latest two corpora at most.
    if (decoded.size >= 2) decoded.delete(decoded.keys().next().value as string);
    decoded.set(task.inputsId, inputs);
  }
  return inputs;
}

/**
 * Rows, or the error as plain data: an Error crossing the thread boundary loses its class, and the main
 * thread needs to know a SeamlabError (a user's mistake, printed without a stack) from a bug.
 */
export type RowTaskResult =
  | {
      rows: GridRow[];
      ms: number;
      thread: number;
      startedAt: number;
      cpuMs?: number;
      bootCpuMs?: number;
      osThread?: number;
    }
  | { error: { message: string; stack: string; seamlab: boolean } };

let firstTask = true;

/** Computes the rows of one task (runs inside a worker thread). */
export async function runRowTask(task: RowTask): Promise<RowTaskResult> {
  try {
    const startedAt = performance.timeOrigin + performance.now();
    const started = performance.now();
    const cpu0 = threadCpuMs();
    // The thread's CPU before its first task: loading TypeScript and the modules.
    const bootCpuMs = firstTask ? cpu0 : undefined;
    firstTask = false;
    const rows = await computeTaskRows(inputsOf(task), task.configs, task.keys, task.options);
    const cpu1 = threadCpuMs();
    const cpuMs = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
    const osThread = osThreadId();
    return { rows, ms: performance.now() - started, thread: threadId, startedAt, cpuMs, bootCpuMs, osThread };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    return { error: { message: e.message, stack: e.stack ?? "", seamlab: e.name === "SeamlabError" } };
  }
}
