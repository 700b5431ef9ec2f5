/**
 * The seam viewer: a stretch of one document drawn as text, once per splitter (2-3 stacked), with alternating
 * backgrounds per chunk, text shared by neighbouring chunks highlighted, text in no chunk struck through, and a
 * marker at every seam where neighbours share nothing. A static rendering of exact spans (ChunkViz's idea).
 *
 * Pure: payload in, HTML out. Every character from the corpus goes through `escapeHtml`; numbers are checked
 * and clamped, so a payload from a kernel (which the report treats as data) cannot inject markup. The styles sit
 * in a `<style>` element (the report's CSP allows inline styles, nothing else) and use the page's colour
 * variables with fallbacks, so the viewer reads in light and dark themes; in print, shading is kept
 * (`print-color-adjust`) and every seam also has a visible border and marker, so it reads in black and white.
 */
import type { SeamViewerPayload, SeamViewerSplitter } from "../study/viewer";
import { escapeHtml } from "./format";
import { thousands } from "../stats/format";

export type { SeamViewerPayload, SeamViewerSplitter } from "../study/viewer";

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
@media print{.seam-viewer{--sv-a:#e4e9f0;--sv-b:#dbe9f7;--sv-ov:#ffd166;--sv-ovfg:#1d1d1f}\
.seam-viewer .sv-text{max-height:none;overflow:visible}\
.seam-viewer *{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;

function finite(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : fallback;
}

/** One splitter's row: the text cut at every chunk boundary, each piece classed by how many chunks cover it. */
function splitterHtml(text: string, offset: number, splitter: SeamViewerSplitter): string {
  const n = text.length;
  const spans = (Array.isArray(splitter.chunks) ? splitter.chunks : [])
    .map((c) => ({ start: finite(c?.start, 0) - offset, end: finite(c?.end, 0) - offset }))
    .map((c) => ({ start: Math.max(0, Math.min(n, c.start)), end: Math.max(0, Math.min(n, c.end)), raw: c }));
  // Seams with nothing shared, in text coordinates (where the later chunk starts), for neighbours both in view.
  const zeroSeams = new Set<number>();
  const starts = new Set<number>();
  for (let i = 0; i < spans.length; i++) {
    const c = spans[i];
    if (c.raw.end <= 0 || c.raw.start >= n) continue;
    if (c.raw.start >= 0) starts.add(c.start);
    if (i > 0 && spans[i - 1].raw.end > 0 && spans[i - 1].raw.start < n && c.raw.start >= spans[i - 1].raw.end) {
      zeroSeams.add(c.start);
    }
  }
  const cuts = new Set<number>([0, n]);
  for (const c of spans) {
    cuts.add(c.start);
    cuts.add(c.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const parts: string[] = [];
  let zeroCount = 0;
  for (let p = 0; p + 1 < points.length; p++) {
    const from = points[p];
    const to = points[p + 1];
    if (zeroSeams.has(from)) {
      zeroCount++;
      const label = "seam with no shared text";
      parts.push(`<span class="zero" title="${label}" aria-label="${label}">‖</span>`);
    }
    let covering = 0;
    let last = -1;
    for (let i = 0; i < spans.length; i++) {
      if (spans[i].start <= from && spans[i].end >= to && spans[i].end > spans[i].start) {
        covering++;
        last = i;
      }
    }
    const piece = escapeHtml(text.slice(from, to));
    const classes: string[] = [];
    if (covering === 0) classes.push(/\S/.test(text.slice(from, to)) ? "lost" : "gap");
    else if (covering === 1) classes.push(last % 2 === 0 ? "c0" : "c1");
    else classes.push("ov");
    if (starts.has(from) && covering > 0) classes.push("start");
    parts.push(`<span class="${classes.join(" ")}">${piece}</span>`);
  }
  const inView = spans.filter((c) => c.raw.end > 0 && c.raw.start < n).length;
  return (
    `<h4>${escapeHtml(String(splitter.name))} <small>${inView} chunks in view, ` +
    `${zeroCount} seams sharing nothing</small></h4><div class="sv-text">${parts.join("")}</div>`
  );
}

/** The viewer's HTML (a `<figure>` with its own `<style>`), every corpus character escaped. */
export function seamViewerHtml(payload: SeamViewerPayload): string {
  const text = typeof payload?.text === "string" ? payload.text : "";
  const offset = finite(payload?.offset, 0);
  const splitters = (Array.isArray(payload?.splitters) ? payload.splitters : []).slice(0, 3);
  const doc = escapeHtml(String(payload?.doc ?? ""));
  const caption = payload?.caption
    ? escapeHtml(String(payload.caption))
    : `${doc}, characters ${thousands(offset)}–${thousands(offset + text.length)}`;
  const legend =
    `<div class="sv-legend"><span class="c0">chunk</span><span class="c1">next chunk</span>` +
    `<span class="ov">shared by neighbours (overlap)</span><span class="zero">‖ seam sharing nothing</span>` +
    `<span class="lost">in no chunk</span></div>`;
  return (
    `<figure class="seam-viewer"><style>${SEAM_VIEWER_STYLE}</style><figcaption>${caption}</figcaption>${legend}` +
    splitters.map((s) => splitterHtml(text, offset, s)).join("") +
    `</figure>`
  );
}

/** A text rendering for front ends without HTML: each chunk's span and first words, seams sharing nothing marked. */
export function seamViewerText(payload: SeamViewerPayload): string {
  const lines = [`seam viewer: ${payload.doc} [${payload.offset}, ${payload.offset + payload.text.length})`];
  for (const s of payload.splitters) {
    lines.push(`${s.name}:`);
    s.chunks.forEach((c, i) => {
      const prev = s.chunks[i - 1];
      const zero = prev && c.start >= prev.end ? " ‖ no shared text" : "";
      const words = payload.text.slice(
        Math.max(0, c.start - payload.offset),
        Math.max(0, c.start - payload.offset) + 40,
      );
      lines.push(`  [${c.start}, ${c.end})${zero} ${JSON.stringify(words)}`);
    });
  }
  return lines.join("\n");
}
