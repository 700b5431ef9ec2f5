// What notebook cells call to show things. Every output carries text/plain, so any Jupyter front end shows something.
import {
  chartBundle,
  headlineBundle,
  markdownBundle,
  recommendationBundle,
  seamViewerBundle,
  tableBundle,
  type DisplayBundle,
  type TableOptions,
} from "./bundles";
import type { SeamViewerPayload } from "./seam-viewer";
import type { HeadlinePayload, RecommendationPayload, Row } from "./mime";

export type DisplaySink = (bundle: DisplayBundle) => void;

let sink: DisplaySink | undefined;

/** Replaces where displays go (tests, scripts); undefined restores tslab. */
export function setDisplaySink(next: DisplaySink | undefined): void {
  sink = next;
}

// tslab's public `display.raw` carries one MIME type per output (no text/plain fallback, no table rows beside its
// HTML), so bundles go to the writer it calls itself: `lastWriteDisplayData` in the `jupyter` module beside the
// kernel's own tslab instance.
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

/** Shows a vega-lite spec (from `src/charts`); keep the data inline (`data.values`) so the report can offer it. */
export const chart = (spec: Record<string, unknown>): void => emitDisplay(chartBundle(spec));

/** Shows rows as an escaped HTML table with a text/plain fallback; the report adds a CSV/JSON download. */
export const table = (rows: Row[], options?: TableOptions): void => emitDisplay(tableBundle(rows, options));

/** Shows markdown (rendered by the report with raw HTML off). */
export const md = (text: string): void => emitDisplay(markdownBundle(text));

/** Shows a section's heading and lead only when `shown` is truthy, so a page never has a heading over nothing. */
export const mdSection = (shown: unknown, text: string): void => (shown ? md(text) : undefined);

/** Publishes a number for the report's index page; `recommended_overlap` is shown first. */
export const headline = (key: string, value: number | string, options?: Omit<HeadlinePayload, "key" | "value">) =>
  emitDisplay(headlineBundle(key, value, options));

/** Shows the seam viewer (payload from study's seamViewerPayload). */
export const seamViewer = (payload: SeamViewerPayload): void => emitDisplay(seamViewerBundle(payload));

/** Publishes the report's one recommendation ("Do this"), which the index page leads with. */
export const recommendation = (payload: RecommendationPayload): void => emitDisplay(recommendationBundle(payload));
