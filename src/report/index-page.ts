// The report's front page: what was measured, the recommendation and headline numbers, one line per notebook.
import { escapeHtml } from "../notebook/format";
import { pageHtml, tocHtml } from "./page";
import { headlinesHtml, type RenderedNotebook } from "./render";
import { CHOSEN_FILE, recommendationHtml } from "./recommendation";

export interface ReportSummary {
  corpus: string;
  generatedAt: string;
  version: string;
  commit: string;
  totalMs: number;
  /** Pages kept from an earlier run (`--only`) say which run made them. */
  runId?: string;
}

/** What the index lists of a page, and the run that made it. */
export type IndexPage = Pick<
  RenderedNotebook,
  "name" | "title" | "headlines" | "recommendation" | "status" | "failure" | "charts" | "tables" | "durationMs"
> & { run?: { id: string; generatedAt: string; corpus: string } };

export const RECOMMENDED_KEY = "recommended_overlap";

export function renderIndex(pages: IndexPage[], summary: ReportSummary): string {
  const all = pages.flatMap((page) => page.headlines.map((headline) => ({ page, headline })));
  const recommended = all.filter((entry) => entry.headline.key === RECOMMENDED_KEY);
  const others = all.filter((entry) => entry.headline.key !== RECOMMENDED_KEY);
  const failures = pages.filter((page) => page.status === "error");
  const sections = [`<h1 id="seamlab-report">seamlab report</h1>`];
  if (failures.length > 0) {
    sections.push(
      `<div class="banner-error" role="alert"><strong>${failures.length} notebook(s) stopped with an ` +
        `error.</strong><ul>` +
        failures
          .map(
            (page) => `<li><a href="${escapeHtml(page.name)}.html">${escapeHtml(page.failure ?? page.name)}</a></li>`,
          )
          .join("") +
        `</ul></div>`,
    );
  }
  sections.push(`<h2 id="do-this">Do this</h2>`);
  const leading = pages.find((page) => page.recommendation !== undefined);
  if (leading?.recommendation) {
    sections.push(
      recommendationHtml(leading.recommendation, {
        exportHref: leading.recommendation.exported ? CHOSEN_FILE : undefined,
        sourceHref: `${leading.name}.html#do-this`,
        sourceTitle: leading.title,
      }),
    );
  } else if (recommended.length > 0) {
    const links = recommended.map(
      (entry) => `<a href="${escapeHtml(entry.page.name)}.html">${escapeHtml(entry.page.title)}</a>`,
    );
    sections.push(
      `<div class="cards big">${headlinesHtml(recommended.map((entry) => entry.headline))}</div>` +
        `<p class="timing">From ${links.join(", ")}.</p>`,
    );
  } else {
    sections.push(`<p>No notebook published a recommended overlap in this run.</p>`);
  }
  sections.push(
    `<dl class="meta">` +
      `<dt>Corpus</dt><dd><code>${escapeHtml(summary.corpus)}</code></dd>` +
      `<dt>Generated</dt><dd>${escapeHtml(summary.generatedAt)} (${(summary.totalMs / 1000).toFixed(1)} s)</dd>` +
      `<dt>seamlab</dt><dd>${escapeHtml(summary.version)} · commit <code>${escapeHtml(summary.commit)}</code></dd>` +
      `</dl>`,
  );
  sections.push(`<h2 id="headline-numbers">The evidence</h2>`);
  if (others.length > 0) {
    for (const page of pages) {
      const own = others.filter((entry) => entry.page === page).map((entry) => entry.headline);
      if (own.length === 0) continue;
      sections.push(
        `<h3><a href="${escapeHtml(page.name)}.html">${escapeHtml(page.title)}</a></h3><div ` +
          `class="cards">${headlinesHtml(own)}</div>`,
      );
    }
  } else {
    sections.push(`<p>No headline numbers were published.</p>`);
  }
  sections.push(`<h2 id="notebooks">Notebooks</h2>`);
  const rows = pages
    .map((page) => {
      const status =
        page.status === "ok"
          ? `<span class="status-ok">ok</span>`
          : page.status === "error"
            ? `<span class="status-error">error</span>`
            : "saved outputs";
      const time = page.durationMs !== undefined ? `${(page.durationMs / 1000).toFixed(1)} s` : "";
      const earlier = page.run !== undefined && summary.runId !== undefined && page.run.id !== summary.runId;
      const run = page.run
        ? `<span class="timing">${escapeHtml(page.run.generatedAt)}${earlier ? " (earlier run)" : ""}` +
          `${page.run.corpus !== summary.corpus ? ` · ${escapeHtml(page.run.corpus)}` : ""}</span>`
        : "";
      return (
        `<tr><td><a href="${escapeHtml(page.name)}.html">${escapeHtml(page.title)}</a><br><span ` +
        `class="timing">${escapeHtml(page.name)}.ipynb · ` +
        `<a href="${escapeHtml(page.name)}.ipynb">executed notebook</a></span></td><td>${status}</td><td ` +
        `class="num">${page.charts}</td>` +
        `<td class="num">${page.tables}</td><td class="num">${time}</td><td>${run}</td></tr>`
      );
    })
    .join("\n");
  sections.push(
    pages.length === 0
      ? `<p>No notebooks were run.</p>`
      : `<div class="table-wrap"><table class="seamlab-table"><thead><tr><th>Notebook</th><th>Status</th><th ` +
          `class="num">Charts</th><th class="num">Tables</th><th class="num">Run ` +
          `time</th><th>Run</th></tr></thead><tbody>${rows}</tbody></table></div>`,
  );
  return pageHtml({
    title: "seamlab report",
    crumbs: "seamlab report",
    toc: tocHtml([
      { level: 1, text: "seamlab report", id: "seamlab-report" },
      { level: 2, text: "Do this", id: "do-this" },
      { level: 2, text: "The evidence", id: "headline-numbers" },
      { level: 2, text: "Notebooks", id: "notebooks" },
    ]),
    body: sections.join("\n"),
  });
}
