// Report pages laid out by headless Chromium (Debian's) at 1280 px (light and dark) and at print width: no two texts overprint (the
// SVG charts' labels and the HTML text), nothing overflows the page sideways, no table or chart is a scroll box
// that a screenshot or printout would cut, and a long table folds behind "show all" on screen and prints whole.
// Pages are rendered from saved outputs (no kernel): the executed fixture notebook with its index, and a page of
// the chart fixtures (tiny groups, dense rule labels, long legends) with long and wide tables.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chartBundle, tableBundle } from "../../src/notebook/bundles";
import { readNotebook, type Notebook } from "../../src/report/nbformat";
import { renderIndex } from "../../src/report/index-page";
import { renderNotebook } from "../../src/report/render";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../src/report/screenshots";
import { FOLDED_ROWS } from "../../src/report/table-fold";
import { chartFixtures } from "../charts/fixtures/index";

const here = dirname(fileURLToPath(import.meta.url));
const screenshotDir = process.env.SEAMLAB_SCREENSHOT_DIR ?? join(tmpdir(), "seamlab-e2e-screenshots");

/** A page of the chart fixtures and tables as notebooks emit them: a tiny-group corpus's report, without a kernel. */
function chartsNotebook(): Notebook {
  const charts = ["line-tiny-groups", "line-dense-labels", "heatmap-narrow-spread", "bar-small-rates"];
  const long = Array.from({ length: 40 }, (_, i) => ({
    type: ["prose", "reference", "table", "code"][i % 4],
    queries: [412, 124, 2, 17][i % 4],
    "hit@0 %": 50 + (i % 7),
    "hit@200 %": 52 + (i % 5),
    recommended: i % 4 === 2 ? "too few queries" : "undecided: 0, 200 (need ~1,400 queries, 1,300 more)",
  }));
  const wide = [
    Object.fromEntries(
      Array.from({ length: 14 }, (_, i) => [`column with a long header ${i}`, `a-long-unbroken-value-${i}`.repeat(2)]),
    ),
  ];
  const display = (bundle: { data: Record<string, unknown>; metadata: Record<string, unknown> }) => ({
    output_type: "display_data" as const,
    data: bundle.data,
    metadata: bundle.metadata,
  });
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      {
        cell_type: "markdown",
        metadata: {},
        source: "# Chart fixtures on a report page\n\nTiny groups and long labels.",
      },
      {
        cell_type: "code",
        metadata: {},
        execution_count: 1,
        source: "chart(...)",
        outputs: [
          ...charts.map((name) => display(chartBundle(chartFixtures[name]()))),
          display(tableBundle(long, { caption: "Hit rate (%) per type and overlap" })),
          display(tableBundle(wide, { caption: "A table wider than the page" })),
        ],
      },
    ],
  } as unknown as Notebook;
}

/** Runs in the page: what overprints, what overflows, what scrolls. */
function inspectPage() {
  const boxes: { text: string; r: DOMRect; svg: boolean }[] = [];
  const visible = (el: Element) => {
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none" && Number(style.opacity) > 0;
  };
  for (const text of Array.from(document.querySelectorAll("svg text"))) {
    // A halo (a stroked white copy under a label) sits exactly under its label by design.
    if (text.getAttribute("stroke") || !visible(text) || text.closest("[opacity='0']")) continue;
    const r = text.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) boxes.push({ text: text.textContent ?? "", r, svg: true });
  }
  const walker = document.createTreeWalker(document.querySelector("main") ?? document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("svg") || !(node.textContent ?? "").trim() || !visible(parent)) continue;
    const details = parent.closest("details");
    if (details && !details.open && !parent.closest("summary")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of Array.from(range.getClientRects()))
      if (r.width > 0 && r.height > 0)
        boxes.push({ text: (node.textContent ?? "").trim().slice(0, 40), r, svg: false });
  }
  const overlaps: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].r;
      const b = boxes[j].r;
      // Glyph boxes of adjacent HTML lines touch when the line height is under the font's own (headings): a
      // few pixels of vertical contact is not overprinting.
      const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const minDy = boxes[i].svg && boxes[j].svg ? 1 : Math.min(a.height, b.height) / 2;
      if (dx > 1 && dy > minDy) overlaps.push(`"${boxes[i].text}" overprints "${boxes[j].text}"`);
    }
  const outsideSvg = Array.from(document.querySelectorAll("figure.chart svg")).flatMap((svg) => {
    const frame = svg.getBoundingClientRect();
    return Array.from(svg.querySelectorAll("text"))
      .filter((t) => !t.getAttribute("stroke") && visible(t) && !t.closest("[opacity='0']"))
      .filter((t) => {
        const r = t.getBoundingClientRect();
        return (
          r.left < frame.left - 1 || r.right > frame.right + 1 || r.top < frame.top - 1 || r.bottom > frame.bottom + 1
        );
      })
      .map((t) => `"${t.textContent}" outside its chart`);
  });
  const scrollBoxes = Array.from(document.querySelectorAll(".table-wrap, figure.chart .svg-card, figure.chart"))
    .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
    .map(
      (el) => `${el.className} scrolls (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`,
    );
  const wideElements = Array.from(document.querySelectorAll("main *"))
    .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
    .map((el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}"> past the page's right edge`)
    .slice(0, 5);
  return {
    texts: boxes.length,
    overlaps: overlaps.slice(0, 10),
    outsideSvg,
    scrollBoxes,
    wideElements,
    pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
    foldedRows: Array.from(document.querySelectorAll("tr.fold")).filter((row) => visible(row)).length,
    allFoldRows: document.querySelectorAll("tr.fold").length,
  };
}

test("report pages at 1280 px and at print width: no overprinted text, no sideways overflow, no cut tables", async (t) => {
  if (!existsSync(CHROMIUM_PATH)) {
    const reason = `${CHROMIUM_PATH} not installed (apt-get install chromium)`;
    console.log(`# skipping the layout test: ${reason}`);
    t.skip(reason);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), "seamlab-layout-"));
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    const executed = join(here, "..", "fixtures", "notebooks", "executed", "every-output.ipynb");
    const pages = [
      await renderNotebook(readNotebook(executed), "every-output"),
      await renderNotebook(chartsNotebook(), "chart-fixtures"),
    ];
    for (const page of pages) writeFileSync(join(work, `${page.name}.html`), page.html);
    const summary = {
      corpus: "fixture",
      generatedAt: "2026-01-01T00:00:00Z",
      version: "0.1.0",
      commit: "abc123",
      totalMs: 1000,
    };
    writeFileSync(join(work, "index.html"), renderIndex(pages, summary));
    mkdirSync(screenshotDir, { recursive: true });

    const widths = [
      { name: "screen", width: 1280, media: "screen" as const, colorScheme: "light" as const },
      { name: "dark", width: 1280, media: "screen" as const, colorScheme: "dark" as const },
      { name: "print", width: 794, media: "print" as const, colorScheme: "light" as const },
    ];
    for (const { name, width, media, colorScheme } of widths) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
      // tsx names the inner functions of inspectPage through a helper the page does not have.
      await context.addInitScript({ content: "globalThis.__name = (f) => f;" });
      const page = await context.newPage();
      await page.emulateMedia({ media });
      for (const file of ["index", "every-output", "chart-fixtures"]) {
        await page.goto(pathToFileURL(join(work, `${file}.html`)).href, { waitUntil: "load" });
        const seen = await page.evaluate(inspectPage);
        const where = `${file}.html at ${width} px (${name})`;
        assert.ok(seen.texts > 10, `${where}: texts were measured`);
        assert.deepEqual(seen.overlaps, [], `${where}: overprinted text`);
        assert.deepEqual(seen.outsideSvg, [], `${where}: chart text outside its chart`);
        assert.deepEqual(seen.scrollBoxes, [], `${where}: scroll boxes`);
        assert.deepEqual(seen.wideElements, [], `${where}: elements past the right edge`);
        assert.equal(seen.pageScrollsSideways, false, `${where}: the page scrolls sideways`);
        if (file === "chart-fixtures") {
          assert.equal(seen.allFoldRows, 40 - FOLDED_ROWS, "rows past the first ten are folded");
          if (media === "print") assert.equal(seen.foldedRows, seen.allFoldRows, "a printout shows every row");
          else {
            assert.equal(seen.foldedRows, 0, "on screen the long table shows its first rows");
            await page.click("details.table-fold > summary");
            const opened = await page.evaluate(inspectPage);
            assert.equal(opened.foldedRows, opened.allFoldRows, "show all unfolds every row");
            assert.deepEqual(opened.overlaps, [], `${where}, unfolded: overprinted text`);
          }
          await page.screenshot({ path: join(screenshotDir, `layout-${file}-${name}.png`), fullPage: true });
        }
      }
      await context.close();
    }
    console.log(`# layout screenshots: ${join(screenshotDir, "layout-chart-fixtures-screen.png")} and -print.png`);
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
});
