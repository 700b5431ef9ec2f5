// `seamlab seams --per-seam FILE.html --text`: every seam with its neighbouring text, written piece by piece (head,
// rows per document, foot) so a large corpus is never one string. Its CSP allows only the inline style.
import type { SeamText } from "../measure/seam-text";
import { escapeHtml } from "./format";

/** How `seams --force` recognises a page it wrote. */
const SEAM_TEXT_PAGE_MARKER = '<meta name="generator" content="seamlab seams">';

const STYLE = `
body{font:14px/1.5 system-ui,sans-serif;max-width:80rem;margin:1rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d9dce1;padding:.3rem .5rem;vertical-align:top;
text-align:left}td.n{text-align:right;white-space:nowrap}
.t{font:12px/1.5 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word}
.ctx{color:#5f6368}mark{background:#ffd166;color:#1d1d1f}.gap{text-decoration:line-through;color:#b3261e}
.seam{color:#d55e00;font-weight:700}
@media (prefers-color-scheme: dark){body{background:#16181c;color:#e6e6e6}.ctx{color:#a0a4aa}
mark{background:#7a5a00;color:#fff3cd}td,th{border-color:#3a3f47}}
`;

export interface SeamTextRow extends SeamText {
  doc: string;
  index: number;
  overlap: number;
}

/** The page up to the table's first row; `lines` say what was split and how. */
export function seamTextPageHead(title: string, lines: readonly string[]): string {
  return (
    `<!doctype html><html lang="en"><head>${SEAM_TEXT_PAGE_MARKER}<meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>` +
    lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("") +
    `<p><span class="ctx">text either side</span>, <mark>shared by both chunks</mark>, ` +
    `<span class="gap">in neither chunk</span>, <span class="seam">‖</span> a seam sharing nothing.</p>` +
    `<table><thead><tr><th>document</th><th>seam</th><th>overlap</th><th>text at the seam</th></tr></thead><tbody>\n`
  );
}

export function seamTextRowsHtml(rows: readonly SeamTextRow[]): string {
  return rows
    .map((r) => {
      const middle = r.shared
        ? `<mark>${escapeHtml(r.shared)}</mark>`
        : `<span class="gap">${escapeHtml(r.between)}</span><span class="seam" title="seam sharing nothing">‖</span>`;
      return (
        `<tr><td>${escapeHtml(r.doc)}</td><td class="n">${r.index + 1}</td><td class="n">${r.overlap}</td>` +
        `<td class="t"><span class="ctx">${escapeHtml(r.before)}</span>${middle}` +
        `<span class="ctx">${escapeHtml(r.after)}</span></td></tr>\n`
      );
    })
    .join("");
}

export const seamTextPageFoot = (): string => "</tbody></table></body></html>\n";
