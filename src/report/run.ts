// Executes a notebook through the tslab kernel cell by cell, like papermill: parameters injected, a per-cell timeout,
// per-cell timings in cell metadata, and a stop at the first failing cell (which keeps its error output).
import { basename, join } from "node:path";
import { TslabKernel } from "./kernel";
import { OutputCollector, errorFromStderr } from "./outputs";
import { injectParameters, joinSource, type Notebook } from "./nbformat";

export interface RunOptions {
  /** Project root: its src/ (or a compiled copy of it) is what `./src/...` imports load. */
  root: string;
  /** Values that override the `parameters` cell. */
  parameters?: Record<string, unknown>;
  cellTimeoutMs?: number;
  /** The whole notebook's time limit, kernel start included: the cell running then is interrupted (`overran`). */
  timeLimitMs?: number;
  env?: Record<string, string>;
  /** A compiled copy of src/, maybe still being built: `./src` is linked to it once `ready` settles (else to src/). */
  compiledSources?: { ready: Promise<{ dir?: string }> };
  /** Without @types/node; only with `compiledSources` (restarted with them if no copy lands: tslab would need them). */
  hideNodeTypes?: boolean;
}

export interface FailedCell {
  /** Index among all cells (0-based), and the 1-based position among code cells, as Jupyter shows "[n]". */
  index: number;
  codeCellNumber: number;
  id?: string;
  message: string;
}

export interface RunResult {
  notebook: Notebook;
  ok: boolean;
  failed?: FailedCell;
  durationMs: number;
  kernelStartMs: number;
  /** A cell was stopped by `timeLimitMs`, not by its own timeout or an error. */
  overran?: boolean;
  peakRssBytes?: number;
}

export async function runNotebook(input: Notebook, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const timeoutMs = options.cellTimeoutMs ?? 120_000;
  const notebook = injectParameters(structuredClone(input), options.parameters ?? {});
  const hide = options.hideNodeTypes === true && options.compiledSources !== undefined;
  const start = (nodeTypes: boolean) => TslabKernel.start(options.root, { env: options.env, nodeTypes });
  let kernel = await start(!hide);
  const sources = await options.compiledSources?.ready.catch(() => undefined);
  if (hide && sources?.dir === undefined) {
    await kernel.shutdown();
    kernel = await start(true);
  }
  kernel.useSources(join(sources?.dir ?? options.root, "src"));
  const kernelStartMs = performance.now() - started;
  const collector = new OutputCollector();
  let failed: FailedCell | undefined;
  let codeCellNumber = 0;
  let peakRssBytes: number | undefined;
  let overran = false;
  const limitLeft = () =>
    options.timeLimitMs === undefined ? Infinity : Math.max(1, options.timeLimitMs - (performance.now() - started));
  try {
    for (let index = 0; index < notebook.cells.length; index++) {
      const cell = notebook.cells[index];
      if (cell.cell_type !== "code") continue;
      codeCellNumber++;
      const code = joinSource(cell.source);
      if (failed) {
        // Cells after a failure are left unexecuted (no stale outputs from an earlier run).
        cell.outputs = [];
        cell.execution_count = null;
        continue;
      }
      const startedAt = new Date().toISOString();
      const left = limitLeft();
      const outcome =
        code.trim() === ""
          ? { status: "ok", executionCount: null, messages: [], durationMs: 0, timedOut: false }
          : await kernel.execute(code, Math.min(timeoutMs, left));
      let outputs = collector.collect(outcome.messages, outcome.executionCount);
      if (outcome.status !== "ok") {
        overran = outcome.timedOut && left < timeoutMs;
        const reason = overran
          ? `the notebook's time limit (${Math.round(options.timeLimitMs! / 1000)} s) was reached in this cell, ` +
            `which was interrupted`
          : outcome.timedOut
            ? `cell timed out after ${Math.round(timeoutMs / 1000)} s and was interrupted`
            : `cell failed (kernel status "${outcome.status}")`;
        outputs = errorFromStderr(outputs, reason);
        const error = outputs.find((output) => output.output_type === "error");
        const detail = !outcome.timedOut && error?.output_type === "error" ? `${error.ename}: ${error.evalue}` : reason;
        failed = { index, codeCellNumber, message: detail, ...(cell.id ? { id: cell.id } : {}) };
      }
      cell.outputs = outputs;
      cell.execution_count = outcome.executionCount;
      cell.metadata = {
        ...cell.metadata,
        execution: { "iopub.execute_input": startedAt, "shell.execute_reply": new Date().toISOString() },
        seamlab: { duration_ms: Math.round(outcome.durationMs), status: outcome.timedOut ? "timeout" : outcome.status },
      };
    }
  } finally {
    peakRssBytes = kernel.peakRssBytes();
    await kernel.shutdown();
  }
  const durationMs = performance.now() - started;
  notebook.metadata = {
    ...notebook.metadata,
    kernelspec: { name: "seamlab-tslab", display_name: "TypeScript (seamlab)", language: "typescript" },
    language_info: { name: "typescript", file_extension: ".ts", mimetype: "text/typescript" },
    seamlab: {
      executed_at: new Date().toISOString(),
      duration_ms: Math.round(durationMs),
      kernel_start_ms: Math.round(kernelStartMs),
      ...(peakRssBytes !== undefined ? { peak_rss_mb: Math.round(peakRssBytes / 2 ** 20) } : {}),
      parameters: options.parameters ?? {},
      status: failed ? "error" : "ok",
      ...(failed ? { failed_cell: failed } : {}),
    },
  };
  return { notebook, ok: !failed, failed, durationMs, kernelStartMs, peakRssBytes, ...(overran ? { overran } : {}) };
}

/** "03-overlap-sweep.ipynb, cell [4] (cell 7 of the file): TypeError: ..." */
export function describeFailure(name: string, failed: FailedCell): string {
  const id = failed.id ? `, id "${failed.id}"` : "";
  const where = `cell ${failed.index + 1} of the executed notebook${id}`;
  return `${basename(name)}, code cell [${failed.codeCellNumber}] (${where}): ${failed.message}`;
}
