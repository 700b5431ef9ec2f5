// The seam viewer: each document drawn once per splitter, chunks in alternating shades, shared text highlighted,
// text in no chunk struck through, a marker at every seam sharing nothing (ChunkViz's idea, on exact spans).
// The report's CSP runs no script, so documents and their pages are `<details>` (a closed page is not laid out) and
// the list links to them by fragment. A kernel's payload is data: every corpus character is escaped and numbers are
// clamped, so it cannot inject markup. Inline styles use the page's colour variables and keep shading in print.
import { totalChars } from "../core/types";
import type { SeamViewerListing, SeamViewerPayload, SeamViewerSplitter, SeamViewerText } from "../study/viewer";
import { escapeHtml } from "./format";
import { thousands } from "../stats/format";

export type { SeamViewerListing, SeamViewerPayload, SeamViewerSplitter, SeamViewerText } from "../study/viewer";

/** The MIME type of a seam viewer output; the report rebuilds its HTML from this payload. */
export const SEAMS_MIME = "application/vnd.seamlab.seams+json";

export const SEAM_VIEWER_STYLE = `
.seam-viewer{margin:.8rem 0;--sv-a:#e4e9f0;--sv-b:#dbe9f7;--sv-ov:#ffd166;--sv-ovfg:#1d1d1f;--sv-mark:#d55e00}
:root[data-theme=dark] .seam-viewer{--sv-a:#2e353f;--sv-b:#23364a;--sv-ov:#7a5a00;--sv-ovfg:#fff3cd}
@media (prefers-color-scheme: dark){:root:not([data-theme=light]) .seam-viewer{\
--sv-a:#2e353f;--sv-b:#23364a;--sv-ov:#7a5a00;--sv-ovfg:#fff3cd}}
.seam-viewer figcaption{font-weight:600;margin:.2rem 0 .4rem}
.seam-viewer .sv-legend{font-size:.8rem;color:var(--muted,#5f6368);margin:.2rem 0 .6rem}
.seam-viewer .sv-legend span{padding:0 .3rem;margin-right:.6rem;border-radius:3px}
.seam-viewer h4{margin:.6rem 0 .2rem;font-size:.9rem}
.seam-viewer h4 small{font-weight:400;color:var(--muted,#5f6368)}
.seam-viewer .sv-text{font:.82rem/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;\
word-break:break-word;border:1px solid var(--border,#d9dce1);border-radius:6px;padding:.5rem .7rem;max-height:24rem;\
overflow:auto;background:var(--bg,#fff);color:var(--fg,#1d1d1f)}
.seam-viewer .c0{background:var(--sv-a)}
.seam-viewer .c1{background:var(--sv-b)}
.seam-viewer .ov{background:var(--sv-ov);color:var(--sv-ovfg);text-decoration:underline;text-decoration-style:dotted}
.seam-viewer .lost{text-decoration:line-through;color:var(--sv-mark)}
.seam-viewer .start{border-left:2px solid var(--fg,#1d1d1f)}
.seam-viewer .zero{color:var(--sv-mark);font-weight:700}
.seam-viewer details{margin:.3rem 0}
.seam-viewer summary{cursor:pointer;font-size:.9rem}
.seam-viewer summary small{color:var(--muted,#5f6368)}
.seam-viewer .sv-doc{border-top:1px solid var(--border,#d9dce1);padding-top:.3rem}
.seam-viewer .sv-doc>summary{font-weight:600}
.seam-viewer .sv-doc:target>summary{outline:2px solid var(--accent,#0b62a4);outline-offset:2px}
.seam-viewer .sv-doc:target::details-content{content-visibility:visible;display:block;height:auto}
.seam-viewer .sv-page{margin-left:1rem}
@media screen{.seam-viewer .sv-list{overflow-x:auto}}
.seam-viewer .sv-list table{font-size:.8rem;border-collapse:collapse}
.seam-viewer .sv-list td,.seam-viewer .sv-list th{padding:.1rem .5rem;text-align:right;\
border-bottom:1px solid var(--border,#d9dce1)}
.seam-viewer .sv-list td:first-child,.seam-viewer .sv-list th:first-child{text-align:left}
@media print{.seam-viewer{--sv-a:#e4e9f0;--sv-b:#dbe9f7;--sv-ov:#ffd166;--sv-ovfg:#1d1d1f}\
.seam-viewer .sv-text{max-height:none;overflow:visible}\
.seam-viewer *{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;

const ZERO_LABEL = "seam with no shared text";

const finite = (value: unknown, fallback: number): number =>
  typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : fallback;

/** One splitter's row: the text cut at every chunk boundary, each piece classed by how many chunks cover it. */
function splitterHtml(text: string, offset: number, splitter: SeamViewerSplitter): string {
  const n = text.length;
  const spans = (Array.isArray(splitter.chunks) ? splitter.chunks : [])
    .map((c) => ({ start: finite(c?.start, 0) - offset, end: finite(c?.end, 0) - offset }))
    .map((c) => ({ start: Math.max(0, Math.min(n, c.start)), end: Math.max(0, Math.min(n, c.end)), raw: c }));
  const inView = (c: (typeof spans)[number]) => c.raw.end > 0 && c.raw.start < n;
  // seams sharing nothing, where the later chunk starts, for neighbours both in view
  const zeroSeams = new Set<number>();
  const starts = new Set<number>();
  spans.forEach((c, i) => {
    if (!inView(c)) return;
    if (c.raw.start >= 0) starts.add(c.start);
    if (i > 0 && inView(spans[i - 1]) && c.raw.start >= spans[i - 1].raw.end) zeroSeams.add(c.start);
  });
  const points = [...new Set([0, n, ...spans.flatMap((c) => [c.start, c.end])])].sort((a, b) => a - b);
  const parts: string[] = [];
  let zeroCount = 0;
  for (let p = 0; p + 1 < points.length; p++) {
    const from = points[p];
    const to = points[p + 1];
    if (zeroSeams.has(from)) {
      zeroCount++;
      parts.push(`<span class="zero" title="${ZERO_LABEL}" aria-label="${ZERO_LABEL}">‖</span>`);
    }
    let covering = 0;
    let last = -1;
    spans.forEach((c, i) => {
      if (c.start <= from && c.end >= to && c.end > c.start) [covering, last] = [covering + 1, i];
    });
    const kind =
      covering === 0 ? (/\S/.test(text.slice(from, to)) ? "lost" : "gap") : covering > 1 ? "ov" : `c${last % 2}`;
    const start = starts.has(from) && covering > 0 ? " start" : "";
    parts.push(`<span class="${kind}${start}">${escapeHtml(text.slice(from, to))}</span>`);
  }
  const shown = spans.filter(inView).length;
  return (
    `<h4>${escapeHtml(String(splitter.name))} <small>${shown} chunks in view, ` +
    `${zeroCount} seams sharing nothing</small></h4><div class="sv-text">${parts.join("")}</div>`
  );
}

const LEGEND =
  `<div class="sv-legend"><span class="c0">chunk</span><span class="c1">next chunk</span>` +
  `<span class="ov">shared by neighbours (overlap)</span><span class="zero">‖ seam sharing nothing</span>` +
  `<span class="lost">in no chunk</span></div>`;

function checkedText(value: unknown): SeamViewerText {
  const t = (value ?? {}) as Partial<SeamViewerText>;
  return {
    doc: String(t.doc ?? ""),
    text: typeof t.text === "string" ? t.text : "",
    offset: Math.max(0, finite(t.offset, 0)),
    splitters: (Array.isArray(t.splitters) ? t.splitters : []).slice(0, 3),
  };
}

/** Its `texts`, or the one stretch of a payload from before the list. */
function textsOf(payload: SeamViewerPayload): SeamViewerText[] {
  if (Array.isArray(payload?.texts)) return payload.texts.map(checkedText);
  return typeof payload?.text === "string" ? [checkedText(payload)] : [];
}

/** Page boundaries of a text: every `pageChars`, moved to just after a line break within a tenth of a page. */
export function pageStarts(text: string, pageChars: number): number[] {
  const starts = [0];
  while (starts[starts.length - 1] + pageChars < text.length) {
    const target = starts[starts.length - 1] + pageChars;
    const newline = text.lastIndexOf("\n", target);
    starts.push(
      newline >= target - Math.floor(pageChars / 10) && newline + 1 > starts[starts.length - 1] ? newline + 1 : target,
    );
  }
  return starts;
}

/** A stable id prefix, so two viewers on a page never share an anchor. */
function idPrefix(texts: readonly SeamViewerText[]): string {
  let hash = 0x811c9dc5;
  for (const t of texts) {
    const key = `${t.doc}\u0000${t.text.length}\u0000`;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  }
  return `sv-${hash.toString(36)}`;
}

const countText = (value: unknown): string =>
  typeof value === "number" && Number.isFinite(value) ? thousands(value) : "–";

/** One carried document: a `<details>` of pages, each a `<details>` of every splitter's row. */
function documentHtml(t: SeamViewerText, id: string, open: boolean, pageChars: number, listing?: SeamViewerListing) {
  const end = t.offset + t.text.length;
  const whole =
    listing && listing.length > end ? ` of ${thousands(finite(listing.length, end))} (cut at the budget)` : "";
  const summary =
    `${escapeHtml(t.doc)} <small>characters ${thousands(t.offset)}–${thousands(end)}${whole}; seams sharing ` +
    `nothing: ${t.splitters.map((s) => `${escapeHtml(String(s?.name))} ${zeroSeams(s)}`).join(", ")}</small>`;
  const starts = pageStarts(t.text, pageChars);
  const pages = starts.map((from, p) => {
    const to = p + 1 < starts.length ? starts[p + 1] : t.text.length;
    const rows = t.splitters.map((s) => splitterHtml(t.text.slice(from, to), t.offset + from, s)).join("");
    if (starts.length === 1) return rows;
    const label = `page ${p + 1} of ${starts.length}: characters ${thousands(t.offset + from)}–${thousands(t.offset + to)}`;
    return `<details class="sv-page"${p === 0 ? " open" : ""}><summary>${label}</summary>${rows}</details>`;
  });
  return `<details class="sv-doc" id="${id}"${open ? " open" : ""}><summary>${summary}</summary>${pages.join("")}</details>`;
}

/** Seams sharing nothing among a splitter's chunks (all of them, not only those of one page). */
function zeroSeams(splitter: SeamViewerSplitter): number {
  const chunks = Array.isArray(splitter?.chunks) ? splitter.chunks : [];
  let zero = 0;
  for (let i = 1; i < chunks.length; i++) if (finite(chunks[i]?.start, 0) >= finite(chunks[i - 1]?.end, 0)) zero++;
  return zero;
}

/** The list of documents: id (linked when carried), length, and per splitter seams (sharing nothing). */
function listHtml(payload: SeamViewerPayload, anchors: Map<string, string>): string {
  const documents = Array.isArray(payload.documents) ? payload.documents : [];
  if (documents.length === 0) return "";
  const names = (Array.isArray(payload.splitterNames) ? payload.splitterNames : []).slice(0, 3).map(String);
  const head =
    `<tr><th>document</th><th>characters</th><th>shown</th>` +
    names.map((n) => `<th>${escapeHtml(n)}: seams (sharing nothing)</th>`).join("") +
    `</tr>`;
  const rows = documents.map((d) => {
    const doc = String(d?.doc ?? "");
    const anchor = anchors.get(doc);
    const name = anchor ? `<a href="#${anchor}">${escapeHtml(doc)}</a>` : escapeHtml(doc);
    const carried = finite(d?.carried, 0);
    const shown = carried <= 0 ? "no" : carried >= finite(d?.length, 0) ? "whole" : `first ${thousands(carried)}`;
    const seams = names.map((_, i) => {
      const all = Array.isArray(d?.seams) ? d.seams[i] : null;
      const zero = Array.isArray(d?.zeroSeams) ? d.zeroSeams[i] : null;
      return all === null || all === undefined
        ? `<td>not split</td>`
        : `<td>${countText(all)} (${countText(zero)})</td>`;
    });
    return `<tr><td>${name}</td><td>${countText(d?.length)}</td><td>${shown}</td>${seams.join("")}</tr>`;
  });
  const corpus = finite(payload.corpusDocs, documents.length);
  const of = corpus > documents.length ? ` of ${thousands(corpus)}` : "";
  const summary =
    `Documents: ${thousands(documents.length)}${of} listed, ${thousands(anchors.size)} shown below ` +
    `(pick one to jump to it)`;
  return (
    `<details class="sv-list"${documents.length <= 20 ? " open" : ""}><summary>${summary}</summary>` +
    `<table><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></details>`
  );
}

/** The viewer's HTML: a `<figure>` with its own `<style>`. */
export function seamViewerHtml(payload: SeamViewerPayload): string {
  const texts = textsOf(payload);
  const pageChars = Math.max(1000, finite(payload?.pageChars, 12_000));
  const prefix = idPrefix(texts);
  const anchors = new Map<string, string>();
  texts.forEach((t, i) => {
    if (!anchors.has(t.doc)) anchors.set(t.doc, `${prefix}-d${i}`);
  });
  const listings = new Map<string, SeamViewerListing>();
  for (const d of Array.isArray(payload?.documents) ? payload.documents : []) listings.set(String(d?.doc), d);
  const chars = totalChars(texts);
  const caption = payload?.caption
    ? escapeHtml(String(payload.caption))
    : texts.length === 1 && !Array.isArray(payload?.documents)
      ? `${escapeHtml(texts[0].doc)}, characters ${thousands(texts[0].offset)}–` +
        `${thousands(texts[0].offset + texts[0].text.length)}`
      : `${thousands(texts.length)} document${texts.length === 1 ? "" : "s"} shown in full (${thousands(chars)} ` +
        `characters): pick any in the list; those with a seam sharing nothing come first`;
  const docs = texts.map((t, i) => documentHtml(t, `${prefix}-d${i}`, i === 0, pageChars, listings.get(t.doc)));
  return (
    `<figure class="seam-viewer"><style>${SEAM_VIEWER_STYLE}</style><figcaption>${caption}</figcaption>${LEGEND}` +
    listHtml(payload ?? {}, anchors) +
    docs.join("") +
    `</figure>`
  );
}

/** For front ends without HTML: the first three texts' chunk spans (the first 40 of each). */
export function seamViewerText(payload: SeamViewerPayload): string {
  const texts = textsOf(payload);
  const lines = [
    `seam viewer: ${texts.length} document(s) shown of ${payload.documents?.length ?? texts.length} listed`,
  ];
  for (const t of texts.slice(0, 3)) {
    lines.push(`${t.doc} [${t.offset}, ${t.offset + t.text.length})`);
    for (const s of t.splitters) {
      lines.push(`  ${s.name}:`);
      s.chunks.slice(0, 40).forEach((c, i) => {
        const prev = s.chunks[i - 1];
        const zero = prev && c.start >= prev.end ? " ‖ no shared text" : "";
        const from = Math.max(0, c.start - t.offset);
        lines.push(`    [${c.start}, ${c.end})${zero} ${JSON.stringify(t.text.slice(from, from + 40))}`);
      });
      if (s.chunks.length > 40) lines.push(`    … ${s.chunks.length - 40} more chunks`);
    }
  }
  return lines.join("\n");
}
