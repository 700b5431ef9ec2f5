// tslab's public `display.raw` carries one MIME type per output (no text/plain fallback, no table rows beside its
// HTML), so bundles go to the writer it calls itself: `lastWriteDisplayData` in the `jupyter` module beside the
// kernel's own tslab instance.
import type { DisplayBundle } from "./bundles";

export type DisplaySink = (bundle: DisplayBundle) => void;

let sink: DisplaySink | undefined;

/** Replaces where displays go (tests, scripts); undefined restores tslab. */
export function setDisplaySink(next: DisplaySink | undefined): void {
  sink = next;
}

function tslabWriter(): ((content: unknown, update: boolean) => void) | undefined {
  if (typeof require !== "function") return undefined;
  let tslab: unknown;
  try {
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
  if (sink) return sink(bundle);
  const write = tslabWriter();
  if (write) return write({ data: bundle.data, metadata: bundle.metadata, transient: {} }, false);
  // outside a kernel (a plain script): the text form
  process.stdout.write(String(bundle.data["text/plain"] ?? "") + "\n");
}
