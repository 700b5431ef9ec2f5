// Renders one executed notebook to a self-contained HTML page. Everything from a kernel is data, not markup: text
// is escaped, markdown has raw HTML off, tables are rebuilt from their rows, text/html outputs are not trusted.
import { stripVTControlCharacters as stripAnsi } from "node:util";
import hljs from "highlight.js/lib/core";
import typescript from "highlight.js/lib/languages/typescript";
import {
  HEADLINE_MIME,
  RECOMMENDATION_MIME,
  TABLE_MIME,
  type HeadlinePayload,
  type RecommendationPayload,
  type TablePayload,
} from "../notebook/mime";
import { checkedRecommendation, recommendationHtml } from "./recommendation";
import { escapeHtml, tableHtml } from "../notebook/format";
import { SEAMS_MIME, seamViewerHtml, type SeamViewerPayload } from "../notebook/seam-viewer";
import { chartRows, downloadLinks } from "./data-links";
import { createMarkdown, renderMarkdown, Slugger, type Heading } from "./markdown";
import { cellTags, joinSource, type MimeBundle, type Notebook, type Output } from "./nbformat";
import { pageHtml, tocHtml } from "./page";
import { foldedTableHtml } from "./table-fold";
import { renderVegaLiteSvg } from "./vega";

export interface RenderedNotebook {
  /** File stem, e.g. "01-how-much-overlap"; the page is `<name>.html`. */
  name: string;
  title: string;
  html: string;
  headlines: HeadlinePayload[];
  /** The recommendation this page argues, if it published one (the last, if several). */
  recommendation?: RecommendationPayload;
  charts: number;
  tables: number;
  /** "saved": rendered from the notebook's saved outputs, not run by seamlab. */
  status: "ok" | "error" | "saved";
  /** One line naming the failing cell, when status is "error". */
  failure?: string;
  /** Charts that could not be rendered and other problems worth a non-zero exit. */
  problems: string[];
  durationMs?: number;
}

hljs.registerLanguage("typescript", typescript);

const VEGA_LITE = /^application\/vnd\.vegalite\.v\d+\+json$/;
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif"];
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

function textOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join("");
  return typeof value === "string" ? value : JSON.stringify(value, null, 1);
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

class PageBuilder {
  readonly markdown = createMarkdown();
  readonly slugger = new Slugger();
  readonly headings: Heading[] = [];
  readonly headlines: HeadlinePayload[] = [];
  recommendation?: RecommendationPayload;
  readonly problems: string[] = [];
  charts = 0;
  tables = 0;

  constructor(readonly name: string) {}

  md(text: string, attachments?: Record<string, Record<string, unknown>>): string {
    return `<div class="md">${renderMarkdown(this.markdown, text, this.slugger, this.headings, attachments)}</div>`;
  }

  async bundle(data: MimeBundle, cellLabel: string): Promise<string> {
    const types = Object.keys(data);
    const headline = data[HEADLINE_MIME] as HeadlinePayload | undefined;
    if (headline && typeof headline === "object" && typeof headline.key === "string") {
      this.headlines.push({ ...headline });
      return headlineHtml(headline);
    }
    if (data[RECOMMENDATION_MIME] !== undefined) {
      const recommendation = checkedRecommendation(data[RECOMMENDATION_MIME]);
      if (recommendation) {
        this.recommendation = recommendation;
        return recommendationHtml(recommendation, { id: "do-this" });
      }
      this.problems.push(`${cellLabel}: a recommendation output without the fields the report needs`);
    }
    const vegaType = types.find((type) => VEGA_LITE.test(type));
    if (vegaType && data[vegaType] && typeof data[vegaType] === "object")
      return this.chart(data[vegaType] as Record<string, unknown>, cellLabel);
    const seams = data[SEAMS_MIME] as SeamViewerPayload | undefined;
    if (seams && typeof seams === "object") return seamViewerHtml(seams);
    const table = data[TABLE_MIME] as TablePayload | undefined;
    if (table && Array.isArray(table.columns) && Array.isArray(table.rows)) {
      this.tables++;
      const columns = table.columns.map(String);
      const html = tableHtml({
        columns,
        rows: table.rows,
        digits: typeof table.digits === "number" ? table.digits : 3,
        caption: table.caption ? String(table.caption) : undefined,
      });
      const links = downloadLinks(table.rows, `${this.name}-table-${this.tables}`, columns);
      return foldedTableHtml(html, table.rows.length) + links;
    }
    if (typeof data["text/markdown"] === "string" || Array.isArray(data["text/markdown"]))
      return this.md(textOf(data["text/markdown"]));
    for (const type of IMAGE_TYPES) {
      const payload = textOf(data[type] ?? "");
      if (data[type] !== undefined && BASE64.test(payload)) {
        return `<img class="output-image" alt="image output" src="data:${type};base64,${payload.replace(/\s+/g, "")}">`;
      }
    }
    if (data["image/svg+xml"] !== undefined) {
      // As an <img>, an SVG cannot run scripts or reach the page.
      const svg = Buffer.from(textOf(data["image/svg+xml"]), "utf8").toString("base64");
      return `<img class="output-image" alt="SVG output" src="data:image/svg+xml;base64,${svg}">`;
    }
    if (data["text/plain"] !== undefined)
      return `<pre class="text">${escapeHtml(stripAnsi(textOf(data["text/plain"])))}</pre>`;
    if (data["text/html"] !== undefined)
      return `<p class="missing-image">[HTML output not shown: only tables made by seamlab's table() are rendered]</p>`;
    return `<p class="missing-image">[output of type ${escapeHtml(types.join(", ") || "none")} not shown]</p>`;
  }

  async chart(spec: Record<string, unknown>, cellLabel: string): Promise<string> {
    this.charts++;
    const id = `${this.name.replace(/[^A-Za-z0-9_-]/g, "-")}-chart-${this.charts}`;
    const rows = chartRows(spec);
    let svg: string;
    try {
      svg = await renderVegaLiteSvg(spec, `${id}-`);
    } catch (error) {
      const message = `chart ${this.charts} in ${cellLabel} could not be rendered: ${(error as Error).message}`;
      this.problems.push(message);
      return `<div class="error"><strong>Chart not rendered</strong><pre>${escapeHtml(message)}</pre></div>`;
    }
    const links = rows && rows.length > 0 ? downloadLinks(rows, id) : "";
    return `<figure class="chart" id="${id}"><div class="svg-card">${svg}</div></figure>${links}`;
  }

  async output(output: Output, cellLabel: string): Promise<string> {
    switch (output.output_type) {
      case "stream": {
        const stream = output.name === "stderr" ? "stderr" : "stdout";
        return `<pre class="stream ${stream}">${escapeHtml(stripAnsi(textOf(output.text)))}</pre>`;
      }
      case "error": {
        const trace = stripAnsi(output.traceback.join("\n"));
        const heading = `<strong>${escapeHtml(output.ename)}: ${escapeHtml(stripAnsi(output.evalue))}</strong>`;
        const pre = trace.trim() ? `<pre>${escapeHtml(trace)}</pre>` : "";
        return `<div class="error" role="alert">${heading}${pre}</div>`;
      }
      case "display_data":
      case "execute_result":
        return this.bundle(output.data ?? {}, cellLabel);
      default:
        return "";
    }
  }
}

function headlineHtml(headline: HeadlinePayload): string {
  const unit = headline.unit ? ` <small>${escapeHtml(headline.unit)}</small>` : "";
  const value = `${escapeHtml(String(headline.value))}${unit}`;
  const note = headline.note ? `<span class="label">${escapeHtml(headline.note)}</span>` : "";
  const label = `<span class="label">${escapeHtml(headline.label ?? headline.key)}</span>`;
  return `<div class="headline">${label}<span class="value">${value}</span>${note}</div>`;
}

export function headlinesHtml(headlines: HeadlinePayload[]): string {
  return headlines.map(headlineHtml).join("");
}

export async function renderNotebook(notebook: Notebook, name: string): Promise<RenderedNotebook> {
  const page = new PageBuilder(name);
  const meta = (notebook.metadata?.seamlab ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  let codeNumber = 0;
  let failedIndex = -1;
  for (let index = 0; index < notebook.cells.length; index++) {
    const cell = notebook.cells[index];
    const source = joinSource(cell.source);
    if (cell.cell_type === "markdown") {
      parts.push(`<section class="cell markdown" id="cell-${index}">${page.md(source, cell.attachments)}</section>`);
      continue;
    }
    if (cell.cell_type !== "code") continue;
    codeNumber++;
    const label = `code cell [${codeNumber}]`;
    const run = (cell.metadata?.seamlab ?? {}) as { duration_ms?: number; status?: string };
    const failed =
      cell.outputs?.some((output) => output.output_type === "error") ||
      (run.status !== undefined && run.status !== "ok");
    if (failed && failedIndex < 0) failedIndex = index;
    const tags = cellTags(cell)
      .map((tag) => `<span class="tag">${escapeHtml(tag)}</span>`)
      .join("");
    const timing =
      typeof run.duration_ms === "number" ? ` <span class="timing">· ${seconds(run.duration_ms)}</span>` : "";
    const outputs: string[] = [];
    for (const output of cell.outputs ?? []) outputs.push(await page.output(output, label));
    const code = hljs.highlight(source, { language: "typescript", ignoreIllegals: true }).value; // escaped by hljs
    parts.push(
      `<section class="cell code" id="cell-${index}">` +
        `<details class="code"${failed ? " open" : ""}><summary>Code [${codeNumber}]${timing}${tags}</summary>` +
        `<pre><code class="hljs language-typescript">${code}</code></pre></details>` +
        outputs.map((html) => `<div class="output">${html}</div>`).join("\n") +
        `</section>`,
    );
  }
  const executed = typeof meta.executed_at === "string";
  const status: RenderedNotebook["status"] =
    failedIndex >= 0 || meta.status === "error" ? "error" : executed ? "ok" : "saved";
  const failedCell = meta.failed_cell as { codeCellNumber?: number; message?: string; index?: number } | undefined;
  const failure =
    status === "error"
      ? `${name}.ipynb, code cell [${failedCell?.codeCellNumber ?? "?"}]: ${failedCell?.message ?? "a cell failed"}`
      : undefined;
  const title =
    page.headings.find((h) => h.level === 1)?.text ??
    (typeof notebook.metadata?.title === "string" ? notebook.metadata.title : name);
  const banner =
    status === "error"
      ? `<div class="banner-error" role="alert"><strong>This notebook ` +
        `stopped with an error.</strong> ${escapeHtml(failure ?? "")} ` +
        `<a href="#cell-${failedCell?.index ?? failedIndex}">Go to ` +
        `the failing cell</a>. Cells after it were not run.</div>`
      : "";
  const runLine = executed
    ? `<p class="timing">Executed ${escapeHtml(String(meta.executed_at))} ` +
      `in ${seconds(Number(meta.duration_ms ?? 0))} ` +
      `(kernel start ${seconds(Number(meta.kernel_start_ms ?? 0))}).</p>`
    : `<p class="timing">Outputs as saved in the notebook (not run by seamlab report).</p>`;
  const html = pageHtml({
    title: `${title} · seamlab report`,
    crumbs: `<a href="index.html">seamlab report</a> / ${escapeHtml(name)}`,
    toc: tocHtml(page.headings),
    body: banner + parts.join("\n") + runLine,
  });
  const { headlines, recommendation, charts, tables, problems } = page;
  const durationMs = typeof meta.duration_ms === "number" ? meta.duration_ms : undefined;
  // In the order of the manifest's page entries (build.ts).
  return { name, title, status, failure, headlines, recommendation, charts, tables, durationMs, html, problems };
}
