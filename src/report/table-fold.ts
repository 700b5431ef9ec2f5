// A long table shows its first rows and folds the rest behind "show all" (rows marked `fold`, hidden by CSS until the
// <details> after the table opens: the CSP allows no script). It is never a scroll box, and prints whole.
import { MAX_HTML_ROWS, escapeHtml } from "../notebook/format";

export const FOLD_OVER_ROWS = 15;
export const FOLDED_ROWS = 10;

/** `tableHtml`'s table (of `rowCount` rows) in its wrapper, folded when it is long. */
export function foldedTableHtml(tableHtml: string, rowCount: number): string {
  if (rowCount <= FOLD_OVER_ROWS) return `<div class="table-wrap">${tableHtml}</div>`;
  const bodyStart = tableHtml.indexOf("<tbody>");
  let seen = 0;
  // Cell text is escaped, so every "<tr>" in the body opens a row.
  const body = tableHtml.slice(bodyStart).replace(/<tr>/g, () => (++seen > FOLDED_ROWS ? '<tr class="fold">' : "<tr>"));
  const rows = `${Math.min(rowCount, MAX_HTML_ROWS).toLocaleString("en-US")} rows`;
  const toggle =
    `<details class="table-fold"><summary><span class="when-closed">show all ${escapeHtml(rows)}</span>` +
    `<span class="when-open">show the first ${FOLDED_ROWS} rows only</span></summary></details>`;
  return `<div class="table-wrap folds">${tableHtml.slice(0, bodyStart)}${body}${toggle}</div>`;
}
