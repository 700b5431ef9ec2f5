// Display bundles (MIME type -> payload), pure: the notebook helpers emit them.
import {
  HEADLINE_MIME,
  RECOMMENDATION_MIME,
  TABLE_MIME,
  VEGA_LITE_MIME,
  type HeadlinePayload,
  type RecommendationPayload,
  type Row,
  type TablePayload,
} from "./mime";
import { columnsOf, tableHtml, tableText } from "./format";
import { SEAMS_MIME, seamViewerHtml, seamViewerText, type SeamViewerPayload } from "./seam-viewer";

export interface DisplayBundle {
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export interface TableOptions {
  /** Column order (default: keys in first-seen order). */
  columns?: string[];
  caption?: string;
  /** Decimals for non-integer numbers (default 3). */
  digits?: number;
}

const bundleOf = (data: Record<string, unknown>): DisplayBundle => ({ data, metadata: {} });

export function chartBundle(spec: Record<string, unknown>): DisplayBundle {
  const raw = typeof spec.title === "string" ? spec.title : (spec.title as { text?: unknown } | undefined)?.text;
  // A title may be several lines (see charts/theme wrapTitleText).
  const text = typeof raw === "string" ? raw : Array.isArray(raw) ? raw.join(" ") : "chart";
  // A deep copy through JSON: the kernel serialises it anyway, and this drops functions/undefined early.
  return bundleOf({ [VEGA_LITE_MIME]: JSON.parse(JSON.stringify(spec)), "text/plain": `[vega-lite chart: ${text}]` });
}

export function tableBundle(rows: Row[], options: TableOptions = {}): DisplayBundle {
  const columns = columnsOf(rows, options.columns);
  const digits = options.digits ?? 3;
  const plainRows: Row[] = rows.map((row) =>
    Object.fromEntries(columns.map((c) => [c, row[c] === undefined ? null : row[c]])),
  );
  const table: TablePayload = { columns, rows: plainRows, digits };
  if (options.caption) table.caption = options.caption;
  return bundleOf({
    [TABLE_MIME]: { ...table, rows: JSON.parse(JSON.stringify(plainRows)) },
    "text/html": tableHtml(table),
    "text/plain": tableText(table),
  });
}

export function markdownBundle(text: string): DisplayBundle {
  return bundleOf({ "text/markdown": text, "text/plain": text });
}

export function headlineBundle(
  key: string,
  value: number | string,
  options: Omit<HeadlinePayload, "key" | "value"> = {},
): DisplayBundle {
  const payload: HeadlinePayload = { key, value };
  for (const field of ["label", "unit", "note"] as const)
    if (options[field] !== undefined) payload[field] = options[field];
  const shown = `${options.label ?? key}: ${value}${options.unit ? " " + options.unit : ""}`;
  return bundleOf({ [HEADLINE_MIME]: payload, "text/markdown": `**${shown}**`, "text/plain": shown });
}

/** The report's one recommendation: the payload (the index renders it first), and markdown for Jupyter. */
export function recommendationBundle(payload: RecommendationPayload): DisplayBundle {
  const plain = JSON.parse(JSON.stringify(payload)) as RecommendationPayload;
  const lead =
    plain.state === "decided" ? `**Do this: ${plain.action}**` : `**${capitalised(plain.state)}: ${plain.action}**`;
  const lines = [lead, "", plain.reason, "", `How sure: ${plain.sureness}.`];
  if (plain.stability) lines.push(`Stability: ${plain.stability}.`);
  if (plain.settle) lines.push("", "To settle it: `" + plain.settle + "`");
  const text = lines.join("\n");
  return bundleOf({ [RECOMMENDATION_MIME]: plain, "text/markdown": text, "text/plain": text.replace(/\*\*|`/g, "") });
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The seam viewer: the payload for the report (which rebuilds and escapes the HTML), HTML for Jupyter, text. */
export function seamViewerBundle(payload: SeamViewerPayload): DisplayBundle {
  const plain = JSON.parse(JSON.stringify(payload)) as SeamViewerPayload;
  return bundleOf({ [SEAMS_MIME]: plain, "text/html": seamViewerHtml(plain), "text/plain": seamViewerText(plain) });
}
