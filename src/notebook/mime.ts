/** JupyterLab renders this natively; the report renders it to SVG. */
export const VEGA_LITE_MIME = "application/vnd.vegalite.v5+json";
/** The rows behind a `table()` output: the report rebuilds the HTML from these, never trusting text/html. */
export const TABLE_MIME = "application/vnd.seamlab.table+json";
/** A headline number a notebook publishes for the report's index page. */
export const HEADLINE_MIME = "application/vnd.seamlab.headline+json";

export type Row = Record<string, unknown>;

export interface TablePayload {
  columns: string[];
  rows: Row[];
  caption?: string;
  digits: number;
}

export interface HeadlinePayload {
  key: string;
  value: number | string;
  label?: string;
  unit?: string;
  note?: string;
}

/** The one recommendation a report leads with ("Do this"); the index page renders it first. */
export const RECOMMENDATION_MIME = "application/vnd.seamlab.recommendation+json";

export type { RecommendationPayload } from "../study/types";
