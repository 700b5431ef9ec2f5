// The HTML shell of every report page: inline CSS (light/dark/print), one inline script for the theme toggle, and a
// Content-Security-Policy that allows nothing else. A `\` at a line's end inside these templates continues the line.
import { createHash } from "node:crypto";
import { INK } from "../charts/theme";
import { escapeHtml } from "../notebook/format";
import type { Heading } from "./markdown";

const THEME_SCRIPT = `(function () {
  var root = document.documentElement, key = "seamlab-theme";
  try { var saved = localStorage.getItem(key); \
if (saved === "dark" || saved === "light") root.setAttribute("data-theme", saved); } catch (e) {}
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var current = root.getAttribute("data-theme") || \
(window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
      var next = current === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem(key, next); } catch (e) {}
    });
  });
})();`;

const SCRIPT_HASH = createHash("sha256").update(THEME_SCRIPT).digest("base64");

export const CONTENT_SECURITY_POLICY =
  `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; ` +
  `base-uri 'none'; form-action 'none'`;

type InkName = keyof typeof INK;

/** Each chart ink in dark mode (its light value is the chart's own, INK). */
const DARK_INK: Record<InkName, string> = {
  background: "#1b1e23",
  text: "#e6e6e6",
  muted: "#a0a4aa",
  rule: "#c4c8ce",
  marker: "#d0d3d8",
  axis: "#8a9099",
  grid: "#30353d",
  margin: "#4fd1a1",
  halo: "#1b1e23",
  black: "#e6e6e6",
};

const inkVariables = (ink: Record<InkName, string>) =>
  (Object.keys(INK) as InkName[]).map((name) => `--ink-${name}:${ink[name]}`).join(";");

/**
 * Charts' ink colours (SVG attributes) restyled through CSS variables for dark mode. Data colours are left alone: the
 * background only on the root rectangle, the halo by its stroke, black never on a text (a heatmap cell's number).
 */
const GUIDE_TEXT = ["axis-label", "axis-title", "legend-label", "legend-title", "title-text", "title-subtitle"];

function chartInkRules(): string {
  const chart = "figure.chart svg";
  const rules = [
    `${chart}>rect{fill:var(--ink-background)}`,
    `${chart} [stroke="${INK.halo}"]{fill:var(--ink-halo);stroke:var(--ink-halo)}`,
    `${chart} :not(text)[fill="${INK.black}"]{fill:var(--ink-black)}${chart} [stroke="${INK.black}"]{stroke:var(--ink-black)}`,
    // vega's own defaults, in charts whose spec predates INK (a saved notebook's)
    `${chart} :is(${GUIDE_TEXT.map((role) => `.role-${role}`).join(",")}) [fill="#000"]{fill:var(--ink-text)}`,
    `${chart} .role-axis-grid [stroke="#ddd"]{stroke:var(--ink-grid)}`,
  ];
  for (const name of Object.keys(INK) as InkName[]) {
    if (name === "background" || name === "halo" || name === "black") continue;
    rules.push(
      `${chart} [fill="${INK[name]}"]{fill:var(--ink-${name})}${chart} [stroke="${INK[name]}"]{stroke:var(--ink-${name})}`,
    );
  }
  return rules.join("\n");
}

/** Screens this wide or narrower (in rem) lay the page out in one column, without the contents beside it. */
const ONE_COLUMN_REM = 52;

/**
 * On a screen too narrow for a table's whole words, cells (not numbers) may break inside words rather than push the
 * table past the page: 7.5rem a column, 5.5rem at 9 columns or more, at most 54rem (the 1280 px layout keeps words).
 * A one-column screen (a phone) keeps the words and scrolls a wide table inside its box instead.
 */
function narrowTableRules(): string {
  const rules: string[] = [];
  for (let columns = 2; columns <= 14; columns++) {
    const width = Math.min(54, Math.round(columns * (columns >= 9 ? 5.5 : 7.5) * 10) / 10);
    const table = `table.seamlab-table:has(th:nth-child(${columns}))`;
    rules.push(`@container (max-width:${width}rem){${table} :is(th,td:not(.num)){overflow-wrap:anywhere}}`);
  }
  return `@media screen and (min-width:${ONE_COLUMN_REM + 0.01}rem){\n${rules.join("\n")}}`;
}

const LIGHT =
  `--bg:#ffffff;--fg:#1d1d1f;--muted:#5f6368;--border:#d9dce1;--panel:#f6f7f9;--accent:#0b62a4;--code-bg:#f6f8fa;\n` +
  `  --err-bg:#fdecea;--err-fg:#8a1c12;--kw:#a626a4;--str:#50a14f;--num:#986801;--com:#6a737d;` +
  `--fn:#4078f2;--type:#c18401;\n  ${inkVariables(INK)}`;
const DARK =
  `--bg:#16181c;--fg:#e6e6e6;--muted:#a0a4aa;--border:#3a3f47;--panel:#1f2329;--accent:#6cb6ff;--code-bg:#1e2227;\n` +
  `  --err-bg:#3b1f1f;--err-fg:#ffb4ab;--kw:#c678dd;--str:#98c379;--num:#d19a66;--com:#7f848e;` +
  `--fn:#61afef;--type:#e5c07b;\n  ${inkVariables(DARK_INK)}`;

export const STYLE = `
:root{${LIGHT};color-scheme:light}
@media (prefers-color-scheme: dark){:root:not([data-theme=light]){${DARK};color-scheme:dark}}
:root[data-theme=dark]{${DARK};color-scheme:dark}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);\
font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent)}
.layout{display:grid;grid-template-columns:15rem minmax(0,1fr);gap:2rem;max-width:76rem;margin:0 auto;padding:1.5rem}
header.top{grid-column:1/-1;display:flex;justify-content:space-between;align-items:center;\
border-bottom:1px solid var(--border);padding-bottom:.6rem}
header.top .crumbs{font-size:.9rem;color:var(--muted)}
nav.toc{position:sticky;top:1rem;align-self:start;font-size:.88rem;max-height:calc(100vh - 2rem);overflow:auto}
nav.toc ol{list-style:none;padding-left:0;margin:.3rem 0}
nav.toc li.l2{padding-left:.8rem}nav.toc li.l3{padding-left:1.6rem}
nav.toc a{text-decoration:none;color:var(--fg)}nav.toc a:hover{color:var(--accent)}
main{min-width:0}
h1,h2,h3{line-height:1.25}
pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.86rem}
pre{background:var(--code-bg);border:1px solid var(--border);border-radius:6px;padding:.7rem .9rem;overflow:auto;\
white-space:pre-wrap;word-break:break-word}
.cell{margin:1rem 0}
details.code>summary{cursor:pointer;color:var(--muted);font-size:.85rem;user-select:none}
details.code>pre{margin-top:.4rem}
.tag{display:inline-block;border:1px solid var(--border);border-radius:999px;padding:0 .5rem;margin-left:.4rem;\
font-size:.75rem}
.output{margin:.5rem 0}
.stream.stderr{border-left:3px solid #d55e00}
.error{background:var(--err-bg);color:var(--err-fg);border-radius:6px;padding:.6rem .9rem;margin:.6rem 0}
.error pre{background:transparent;border:0;padding:0;color:inherit}
.banner-error{background:var(--err-bg);color:var(--err-fg);border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
figure.chart{margin:.8rem 0}
figure.chart .svg-card{background:var(--ink-background);border:1px solid var(--border);border-radius:8px;padding:.4rem}
figure.chart svg{max-width:100%;height:auto;display:block}
${chartInkRules()}
.table-wrap{border:1px solid var(--border);border-radius:6px;container-type:inline-size}
table.seamlab-table{border-collapse:collapse;font-size:.88rem;width:100%}
table.seamlab-table caption{caption-side:top;text-align:left;font-weight:600;padding:.4rem .6rem}
table.seamlab-table th,table.seamlab-table td{padding:.3rem .6rem;border-bottom:1px solid var(--border);\
text-align:left;vertical-align:top;overflow-wrap:break-word}
table.seamlab-table th{background:var(--panel)}
table.seamlab-table td.num{overflow-wrap:normal}
table.seamlab-table:has(th:nth-child(9)){font-size:.76rem}
table.seamlab-table:has(th:nth-child(9)) :is(th,td){padding:.25rem .35rem}
table.seamlab-table:has(th:nth-child(13)){font-size:.64rem}
table.seamlab-table:has(th:nth-child(13)) :is(th,td){padding:.2rem .2rem}
${narrowTableRules()}
.table-wrap.folds:not(:has(>details.table-fold[open])) tr.fold{display:none}
details.table-fold>summary{cursor:pointer;color:var(--accent);font-size:.85rem;padding:.3rem .6rem}
details.table-fold[open] .when-closed,details.table-fold:not([open]) .when-open{display:none}
table.seamlab-table .num{text-align:right;font-variant-numeric:tabular-nums}
table.seamlab-table td.more{color:var(--muted);font-style:italic}
.download{font-size:.82rem;color:var(--muted);margin:.3rem 0 1rem}
.headline{display:inline-block;background:var(--panel);border:1px solid var(--border);border-radius:8px;\
padding:.5rem .9rem;margin:.3rem .4rem .3rem 0}
.headline .value{font-size:1.4rem;font-weight:650}
.headline .label{font-size:.8rem;color:var(--muted);display:block}
.cards{display:flex;flex-wrap:wrap;gap:.6rem}
.big .value{font-size:2.2rem}
.do-this{border:1px solid var(--border);border-left:6px solid #009e73;border-radius:8px;padding:.6rem 1rem;\
margin:.5rem 0 1rem;background:var(--panel)}
.do-this.not-decided{border-left-color:#e69f00}
.do-this-lead .label{display:block;font-size:.8rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.do-this-lead .value{font-size:2rem;font-weight:650}.do-this-lead .tentative{font-size:1.15rem;font-weight:600}
code.settle{white-space:pre-wrap;overflow-wrap:anywhere}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;font-size:.92rem}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0}
.status-ok{color:#009e73;font-weight:600}.status-error{color:#d55e00;font-weight:600}
.timing{color:var(--muted);font-size:.8rem}
button#theme-toggle{font:inherit;font-size:.85rem;background:var(--panel);color:var(--fg);\
border:1px solid var(--border);border-radius:6px;padding:.25rem .7rem;cursor:pointer}
.missing-image{color:var(--muted);font-style:italic}
.hljs-keyword,.hljs-built_in,.hljs-literal{color:var(--kw)}.hljs-string,.hljs-regexp{color:var(--str)}
.hljs-number{color:var(--num)}.hljs-comment{color:var(--com);font-style:italic}
.hljs-title,.hljs-function{color:var(--fn)}.hljs-type,.hljs-attr,.hljs-class{color:var(--type)}
@media (max-width:${ONE_COLUMN_REM}rem){.layout{grid-template-columns:1fr}nav.toc{position:static}}
@media screen and (max-width:${ONE_COLUMN_REM}rem){.table-wrap{overflow-x:auto}:is(p,li)>code{overflow-wrap:anywhere}}
@media print{
  :root,:root:not([data-theme=light]),:root[data-theme=dark]{${LIGHT};color-scheme:light}
  .layout{display:block;max-width:none;padding:0}
  nav.toc,button#theme-toggle,.download{display:none}
  details.code{display:none}
  figure.chart,.error{break-inside:avoid}
  table.seamlab-table tr{break-inside:avoid}
  table.seamlab-table:has(th:nth-child(9)){font-size:.66rem}
  table.seamlab-table:has(th:nth-child(9)) :is(th,td){padding:.2rem .25rem}
  table.seamlab-table:has(th:nth-child(13)){font-size:.56rem}
  table.seamlab-table:has(th:nth-child(13)) :is(th,td){padding:.2rem .2rem}
  table.seamlab-table thead{display:table-header-group}
  .table-wrap.folds tr.fold{display:table-row !important}
  details.table-fold{display:none}
  a{color:inherit;text-decoration:none}
}`;

export function pageHtml(parts: { title: string; crumbs: string; toc: string; body: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="seamlab">
<title>${escapeHtml(parts.title)}</title>
<style>${STYLE}</style>
<script>${THEME_SCRIPT}</script>
</head>
<body>
<div class="layout">
<header class="top"><div class="crumbs">${parts.crumbs}</div>\
<button id="theme-toggle" type="button" hidden>Light / dark</button></header>
<nav class="toc" aria-label="Contents">${parts.toc}</nav>
<main>
${parts.body}
</main>
</div>
</body>
</html>
`;
}

export function tocHtml(headings: Heading[]): string {
  if (headings.length === 0) return "";
  const items = headings
    .map((h) => `<li class="l${h.level}"><a href="#${escapeHtml(h.id)}">${escapeHtml(h.text)}</a></li>`)
    .join("");
  return `<strong>Contents</strong><ol>${items}</ol>`;
}
