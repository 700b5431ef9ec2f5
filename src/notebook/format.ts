// Cell formatting shared by the notebook's text/plain tables and the report's HTML tables, so both agree.
import type { TablePayload } from "./mime";

/** Numbers: integers as is, others with `digits` decimals; null/undefined as empty; objects as JSON. */
export function formatCell(value: unknown, digits: number): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return String(value);
    return Number.isInteger(value) ? String(value) : value.toFixed(digits);
  }
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** Column order: the given list, else keys in first-seen order across all rows. */
export function columnsOf(rows: Record<string, unknown>[], columns?: string[]): string[] {
  if (columns && columns.length > 0) return columns.slice();
  return [...new Set(rows.flatMap((row) => Object.keys(row)))];
}

/** Cells standing for a missing number: they do not make a column text. */
const MISSING_NUMBER = new Set(["n/a", "", "—"]);

/** Numbers only, or numbers and "n/a": right-aligned. */
function isNumericColumn(rows: Record<string, unknown>[], column: string): boolean {
  let any = false;
  for (const row of rows) {
    const value = row[column];
    if (value === null || value === undefined || (typeof value === "string" && MISSING_NUMBER.has(value))) continue;
    if (typeof value !== "number") return false;
    any = true;
  }
  return any;
}

/** The fewest decimals (at most `digits`) showing every value of a column, so its points line up (3.0 and 1.7). */
function columnDigits(rows: Record<string, unknown>[], column: string, digits: number): number {
  let most = 0;
  for (const row of rows) {
    const value = row[column];
    if (typeof value !== "number" || !Number.isFinite(value) || Number.isInteger(value)) continue;
    const shown = value.toFixed(digits).replace(/\.?0+$/, "");
    const dot = shown.indexOf(".");
    if (dot >= 0) most = Math.max(most, shown.length - dot - 1);
  }
  return most;
}

/** Each column's cell formatter (numbers with `columnDigits` decimals, the rest as `formatCell`) and alignment. */
function columnFormats({ columns, rows, digits }: TablePayload) {
  return columns.map((column) => {
    const places = columnDigits(rows, column, digits);
    const format = (value: unknown) =>
      typeof value === "number" && Number.isFinite(value) ? value.toFixed(places) : formatCell(value, digits);
    return { format, numeric: isNumericColumn(rows, column) };
  });
}

/** Rows shown in HTML tables (all stay in the data download). */
export const MAX_HTML_ROWS = 200;
const MAX_TEXT_ROWS = 40;

const moreRows = (total: number, shown: number): string => `… ${total - shown} more rows (${total} in all)`;

export function tableHtml(table: TablePayload): string {
  const { columns, rows, caption } = table;
  const formats = columnFormats(table);
  const cell = (tag: string, i: number, text: string) =>
    `<${tag}${formats[i].numeric ? ' class="num"' : ""}>${escapeHtml(text)}</${tag}>`;
  const head = columns.map((column, i) => cell("th", i, column)).join("");
  const body = rows
    .slice(0, MAX_HTML_ROWS)
    .map((row) => `<tr>${columns.map((column, i) => cell("td", i, formats[i].format(row[column]))).join("")}</tr>`);
  if (rows.length > MAX_HTML_ROWS)
    body.push(
      `<tr><td colspan="${columns.length}" class="more">${escapeHtml(moreRows(rows.length, MAX_HTML_ROWS))}</td></tr>`,
    );
  const captionHtml = caption ? `<caption>${escapeHtml(caption)}</caption>` : "";
  return (
    `<table class="seamlab-table">${captionHtml}<thead><tr>${head}</tr></thead>\n` +
    `<tbody>\n${body.join("\n")}\n</tbody></table>`
  );
}

export function tableText(table: TablePayload): string {
  const { columns, rows, caption } = table;
  const formats = columnFormats(table);
  const cells = rows
    .slice(0, MAX_TEXT_ROWS)
    .map((row) => columns.map((column, i) => formats[i].format(row[column]).replace(/\s+/g, " ")));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i].length)));
  const pad = (text: string, i: number) => (formats[i].numeric ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  const lines = [
    columns.map(pad).join("  "),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...cells.map((line) => line.map(pad).join("  ")),
  ];
  if (rows.length > MAX_TEXT_ROWS) lines.push(moreRows(rows.length, MAX_TEXT_ROWS));
  return (caption ? caption + "\n" : "") + lines.map((line) => line.replace(/\s+$/, "")).join("\n");
}
