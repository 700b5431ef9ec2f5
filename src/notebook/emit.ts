// Sends a multi-MIME display bundle to the notebook. tslab's public `display.raw(mime, payload)` carries one
// MIME type per output, so JupyterLab could not fall back to text/plain and the report could not get both the
// rows and the HTML of a table. tslab's kernel keeps the current cell's display writer in its `jupyter` module
// (`lastWriteDisplayData`), the function `display.raw` itself calls; we find that module next to the tslab
// instance the kernel hands to `require("tslab")` and call it with the whole bundle.
import type { DisplayBundle } from "./bundles";

export type DisplaySink = (bundle: DisplayBundle) => void;

let sink: DisplaySink | undefined;

/** Replaces where displays go (tests, scripts). Pass undefined to restore the tslab default. */
export function setDisplaySink(next: DisplaySink | undefined): void {
  sink = next;
}

function tslabWriter(): ((content: unknown, update: boolean) => void) | undefined {
  if (typeof require !== "function") return undefined;
  let tslab: unknown;
  try {
    // The kernel's own CommonJS instance of tslab (tslab compiles cells to require()); found by identity below.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    tslab = require("tslab");
  } catch {
    return undefined;
  }
  const cache = require.cache as Record<string, { exports: unknown } | undefined> | undefined;
  if (!cache) return undefined;
  for (const filename of Object.keys(cache)) {
    if (cache[filename]?.exports !== tslab) continue;
    const jupyterPath = filename.replace(/public\.js$/, "jupyter.js");
    const jupyter = cache[jupyterPath]?.exports as { lastWriteDisplayData?: unknown } | undefined;
    if (jupyter && typeof jupyter.lastWriteDisplayData === "function")
      return jupyter.lastWriteDisplayData as (content: unknown, update: boolean) => void;
  }
  return undefined;
}

export function emitDisplay(bundle: DisplayBundle): void {
  if (sink) {
    sink(bundle);
    return;
  }
  const write = tslabWriter();
  if (write) {
    write({ data: bundle.data, metadata: bundle.metadata, transient: {} }, false);
    return;
  }
  // Outside a kernel (a plain script) show the text form.
  process.stdout.write(String(bundle.data["text/plain"] ?? "") + "\n");
}
