// "Download data" links: the rows behind a chart or table as CSV and JSON data: URIs.
import { escapeHtml } from "../notebook/format";

function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "object" ? JSON.stringify(value) : String(value);
  // Corpus text starting like a formula would run as one in a spreadsheet (OWASP "CSV injection"): prefix a quote.
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV with a header of the columns in first-seen order. */
export function toCsv(rows: Record<string, unknown>[], columns?: string[]): string {
  const header = columns ?? Array.from(new Set(rows.flatMap((row) => Object.keys(row))));
  const lines = [header.map(csvField).join(",")];
  for (const row of rows) lines.push(header.map((column) => csvField(row[column])).join(","));
  return lines.join("\r\n") + "\r\n";
}

/** The inline rows of a vega-lite spec: top-level `data.values`, else the first of `datasets`. */
export function chartRows(spec: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const data = spec.data as { values?: unknown } | undefined;
  if (data && Array.isArray(data.values)) return data.values as Record<string, unknown>[];
  const datasets = (spec.datasets ?? {}) as Record<string, unknown>;
  const first = Object.keys(datasets)
    .sort()
    .find((name) => Array.isArray(datasets[name]));
  return first === undefined ? undefined : (datasets[first] as Record<string, unknown>[]);
}

export function downloadLinks(rows: Record<string, unknown>[], baseName: string, columns?: string[]): string {
  const csv = "data:text/csv;charset=utf-8," + encodeURIComponent(toCsv(rows, columns));
  const json = "data:application/json;charset=utf-8," + encodeURIComponent(JSON.stringify(rows, null, 1));
  const name = escapeHtml(baseName.replace(/[^A-Za-z0-9._-]+/g, "-"));
  return (
    `<p class="download">Download data (${rows.length} rows): ` +
    `<a download="${name}.csv" href="${escapeHtml(csv)}">CSV</a> · ` +
    `<a download="${name}.json" href="${escapeHtml(json)}">JSON</a></p>`
  );
}
