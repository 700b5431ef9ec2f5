// What notebook cells call to show things. Every output carries text/plain, so any Jupyter front end shows something.
import {
  chartBundle,
  headlineBundle,
  markdownBundle,
  recommendationBundle,
  seamViewerBundle,
  tableBundle,
  type TableOptions,
} from "./bundles";
import type { SeamViewerPayload } from "./seam-viewer";
import { emitDisplay } from "./emit";
import type { HeadlinePayload, RecommendationPayload, Row } from "./mime";

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
