import { threadId } from "node:worker_threads";
import type { Doc, Query } from "../core/types";
import type { ExperimentConfig } from "./grid";
import { computeDocSetupPart, useSetupTerms, type DocSetup, type DocSetupPart } from "./doc-setup";
import { computeTaskRows, useDocSetup, type GridRow, type RowOptions, type SweepInputs } from "./rows";
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
  /** What every row needs of the documents alone, built once across the threads (see doc-setup). */
  setup?: DocSetup;
}

/** The other unit of work: the doc setup of the documents [from, to), computed before any row task. */
export interface SetupTask {
  kind: "setup";
  inputsId: string;
  inputs: SharedArrayBuffer;
  from: number;
  to: number;
  /** Also build BM25's document terms for the default tokenizer (see doc-setup). */
  terms: boolean;
}

/**
 * The inputs as UTF-8 JSON in a SharedArrayBuffer, written straight into it (`encodeInto`): the main thread does this
 * before any worker gets its first task, and a Buffer in between plus the copy took about 3 times as long (75-100 ms
 * against 25-30 ms for opentelemetry-docs' 5.8 MB, load 5).
 */
export function encodeInputs(inputs: SweepInputs): SharedArrayBuffer {
  const json = JSON.stringify({ docs: inputs.docs, queries: inputs.queries, sample: inputs.sample });
  const shared = new SharedArrayBuffer(Buffer.byteLength(json, "utf8"));
  new TextEncoder().encodeInto(json, new Uint8Array(shared));
  return shared;
}

const decoded = new Map<string, SweepInputs>();

function inputsOf(task: RowTask | SetupTask): SweepInputs {
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

/**
 * An error as plain data: an Error crossing the thread boundary loses its class, and the main thread needs to know
 * a SeamlabError (a user's mistake, printed without a stack) from a bug.
 */
export interface TaskError {
  message: string;
  stack: string;
  seamlab: boolean;
}

/** Rows and when and where they were computed, or the error. */
export type RowTaskResult = ({ rows: GridRow[] } & TaskTiming) | { error: TaskError };

/** A setup part and when and where it was computed, or the error. */
export type SetupTaskResult = ({ part: DocSetupPart } & TaskTiming) | { error: TaskError };

let firstTask = true;
// Documents arrays whose caches hold a setup already.
const installed = new WeakSet<readonly Doc[]>();

/** The thread's CPU before its first task (loading TypeScript and the modules); undefined after the first. */
function bootCpu(cpu0: number | undefined): number | undefined {
  const boot = firstTask ? cpu0 : undefined;
  firstTask = false;
  return boot;
}

function errorResult(error: unknown): { error: TaskError } {
  const e = error instanceof Error ? error : new Error(String(error));
  return { error: { message: e.message, stack: e.stack ?? "", seamlab: e.name === "SeamlabError" } };
}

/** Runs one task inside a worker thread: a setup part, or the rows of some configs. */
export async function runTask(task: RowTask | SetupTask): Promise<RowTaskResult | SetupTaskResult> {
  return "kind" in task && task.kind === "setup" ? runSetupTask(task) : runRowTask(task as RowTask);
}

/**
 * Runs a task's work with its clocks: when and where it ran, its wall time, this thread's CPU for it, and the
 * thread's CPU before its first task. A thrown error becomes the task's error result.
 */
async function timed<T extends object>(work: () => T | Promise<T>): Promise<(T & TaskTiming) | { error: TaskError }> {
  try {
    const startedAt = performance.timeOrigin + performance.now();
    const started = performance.now();
    const cpu0 = threadCpuMs();
    const bootCpuMs = bootCpu(cpu0);
    const value = await work();
    const cpu1 = threadCpuMs();
    const cpuMs = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
    const timing = { ms: performance.now() - started, thread: threadId, startedAt, cpuMs, bootCpuMs };
    return { ...value, ...timing, osThread: osThreadId() };
  } catch (error) {
    return errorResult(error);
  }
}

function runSetupTask(task: SetupTask): Promise<SetupTaskResult> {
  return timed(() => {
    const inputs = inputsOf(task);
    return { part: computeDocSetupPart(inputs.docs, task.from, task.to, task.terms ? inputs.queries : undefined) };
  });
}

/** Computes the rows of one task (runs inside a worker thread). */
export function runRowTask(task: RowTask): Promise<RowTaskResult> {
  return timed(async () => {
    const inputs = inputsOf(task);
    if (task.setup && !inputs.sample && !installed.has(inputs.docs)) {
      useDocSetup(inputs.docs, task.setup);
      useSetupTerms(inputs.docs, inputs.queries, task.setup);
      installed.add(inputs.docs);
    }
    return { rows: await computeTaskRows(inputs, task.configs, task.keys, task.options) };
  });
}
