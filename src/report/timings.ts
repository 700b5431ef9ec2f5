// Where an executed notebook's time went (kernel start, import cells, computing cells), for bench:report.
import { joinSource, type Notebook } from "./nbformat";

export type NotebookTimings = NonNullable<ReturnType<typeof notebookTimings>>;

/** True when a cell's source is import statements (each ending in ";") and line comments only. */
export function isImportCell(source: string): boolean {
  const code = source.replace(/^\s*\/\/.*$/gm, "");
  return /^(\s*import\s[^;]*;)+\s*$/.test(code);
}

/** The timings of a notebook the report executed; undefined when it carries none (not executed by seamlab). */
export function notebookTimings(notebook: Notebook) {
  const meta = (notebook.metadata as { seamlab?: { duration_ms?: number; kernel_start_ms?: number } }).seamlab;
  if (typeof meta?.duration_ms !== "number") return undefined;
  let importMs = 0;
  let computeMs = 0;
  for (const cell of notebook.cells) {
    if (cell.cell_type !== "code") continue;
    const ms = (cell.metadata as { seamlab?: { duration_ms?: number } }).seamlab?.duration_ms ?? 0;
    if (isImportCell(joinSource(cell.source))) importMs += ms;
    else computeMs += ms;
  }
  return { totalMs: meta.duration_ms, kernelStartMs: meta.kernel_start_ms ?? 0, importMs, computeMs };
}
