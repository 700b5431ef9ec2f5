import { threadId } from "node:worker_threads";
import type { Doc } from "../core/types";
import type { ExperimentConfig } from "./grid";
import { computeDocSetupPart, useSetupTerms, type DocSetup, type DocSetupPart } from "./doc-setup";
import { computeTaskRows, useDocSetup, type GridRow, type RowOptions, type SweepInputs } from "./rows";
import { osThreadId, taskClock } from "./thread-times";

/**
 * A worker thread's unit of work: configs best computed in one thread. The corpus and queries travel as UTF-8 JSON in
 * a SharedArrayBuffer (zero-copy), decoded once per worker by `inputsId`.
 */
export interface RowTask {
  inputsId: string;
  inputs: SharedArrayBuffer;
  configs: ExperimentConfig[];
  keys: string[];
  options: RowOptions;
  setup?: DocSetup;
}

/** The doc setup of the documents [from, to), computed before any row task; `terms`: BM25's document terms too. */
export interface SetupTask extends Pick<RowTask, "inputsId" | "inputs"> {
  kind: "setup";
  from: number;
  to: number;
  terms: boolean;
}

/** The inputs written straight into a SharedArrayBuffer: a Buffer in between took 3 times as long (75-100 ms). */
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
    inputs = JSON.parse(Buffer.from(task.inputs).toString("utf8")) as SweepInputs;
    // Keep the latest two corpora at most.
    if (decoded.size >= 2) decoded.delete(decoded.keys().next().value as string);
    decoded.set(task.inputsId, inputs);
  }
  return inputs;
}

/**
 * When and where a task ran: its thread (0 = the calling thread), start (epoch ms) and duration in ms; Linux only: CPU
 * ms, the kernel thread, and the CPU ms the worker thread used before its first task (on its first task only).
 */
export type TaskTiming = ReturnType<ReturnType<typeof taskClock>["stop"]> & {
  thread: number;
  bootCpuMs?: number;
  osThread?: number;
};

/** An error as plain data: crossing the thread boundary loses its class, and a SeamlabError prints without a stack. */
export type TaskError = { message: string; stack: string; seamlab: boolean };

export type RowTaskResult = ({ rows: GridRow[] } & TaskTiming) | { error: TaskError };
export type SetupTaskResult = ({ part: DocSetupPart } & TaskTiming) | { error: TaskError };

let firstTask = true;
// Documents arrays whose caches hold a setup already.
const installed = new WeakSet<readonly Doc[]>();

/** Runs one task inside a worker thread: a setup part, or the rows of some configs. */
export async function runTask(task: RowTask | SetupTask): Promise<RowTaskResult | SetupTaskResult> {
  if ("kind" in task) {
    const { from, to, terms } = task;
    return timed(() => {
      const inputs = inputsOf(task);
      return { part: computeDocSetupPart(inputs.docs, from, to, terms ? inputs.queries : undefined) };
    });
  }
  const { setup, configs, keys, options } = task;
  return timed(async () => {
    const inputs = inputsOf(task);
    if (setup && !inputs.sample && !installed.has(inputs.docs)) {
      useDocSetup(inputs.docs, setup);
      useSetupTerms(inputs.docs, inputs.queries, setup);
      installed.add(inputs.docs);
    }
    return { rows: await computeTaskRows(inputs, configs, keys, options) };
  });
}

/** Runs a task's work with its clocks (the thread's CPU before its first task too); an error becomes its result. */
async function timed<T extends object>(work: () => T | Promise<T>): Promise<(T & TaskTiming) | { error: TaskError }> {
  try {
    const clock = taskClock();
    const bootCpuMs = firstTask ? clock.cpu0 : undefined;
    firstTask = false;
    const value = await work();
    return { ...value, ...clock.stop(), thread: threadId, bootCpuMs, osThread: osThreadId() };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    return { error: { message: e.message, stack: e.stack ?? "", seamlab: e.name === "SeamlabError" } };
  }
}
