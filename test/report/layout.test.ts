// Report pages laid out by headless Chromium (Debian's) at 1280 px (light and dark), at print width (794 px, printed
// from a system in dark mode) and at a phone's 390 px: no two texts overprint (the SVG charts' labels and the HTML
// text), nothing overflows the page sideways, no table or chart is a scroll box that a screenshot or printout would
// cut (on a phone a wide table scrolls inside its box instead), no word of a table cell breaks across lines, chart texts read against their card and no chart is a white panel in dark mode, and a
// long table folds behind "show all" on screen and prints whole. Pages are rendered from saved outputs (no kernel):
// the executed fixture notebook, a page of the chart fixtures (tiny groups, dense rule labels, long legends) with
// long and wide tables, notebook 03 as the default report executed it, and their index; with SEAMLAB_REPORT_DIR,
// every page of that built report too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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
import { inspectPage, lowContrastChartTexts, whiteShare } from "./page-inspect";

const here = dirname(fileURLToPath(import.meta.url));
const screenshotDir = process.env.SEAMLAB_SCREENSHOT_DIR ?? join(tmpdir(), "seamlab-e2e-screenshots");

/** A page of the chart fixtures and tables as notebooks emit them: a tiny-group corpus's report, without a kernel. */
function chartsNotebook(): Notebook {
  const charts = [
    "line-tiny-groups",
    "line-dense-labels",
    "line-margin-band",
    "heatmap-narrow-spread",
    "bar-small-rates",
  ];
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
  // The words a printout used to break ("unc/lear", "McN/emar"), in a table as wide as 03's widest.
  const words = ["unclear", "McNemar p vs best", "undecided: 0, 200", "langchain-python", "[+1.0, +6.0]", "structure"];
  const paired = Array.from({ length: 4 }, (_, r) =>
    Object.fromEntries(
      Array.from({ length: 14 }, (_, i) => [
        `${words[i % words.length]} ${i}`,
        i % 3 === 0 ? 60 + r : words[(i + r) % 6],
      ]),
    ),
  );
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
          display(tableBundle(paired, { caption: "Fourteen columns of words that must stay whole" })),
        ],
      },
    ],
  } as unknown as Notebook;
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
    const executed = join(here, "..", "fixtures", "notebooks", "executed");
    const pages = [
      await renderNotebook(readNotebook(join(executed, "every-output.ipynb")), "every-output"),
      await renderNotebook(chartsNotebook(), "chart-fixtures"),
      // A page of the real default report (notebook 03 as `npm run report` executed it on fastify-docs), drawn by
      // today's renderer and CSS: nine charts, eleven tables, the Do this block.
      await renderNotebook(readNotebook(join(executed, "03-overlap-sweep-default.ipynb")), "03-overlap-sweep"),
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
    const targets = ["index", ...pages.map((page) => page.name)].map((name) => ({
      name,
      path: join(work, `${name}.html`),
    }));
    // A whole built report as well (e.g. `npm run report -- --out DIR`), when SEAMLAB_REPORT_DIR names one.
    const built = process.env.SEAMLAB_REPORT_DIR;
    if (built)
      for (const file of readdirSync(built).filter((f) => f.endsWith(".html")))
        targets.push({ name: `built ${file}`, path: join(built, file) });
    else console.log("# layout test: SEAMLAB_REPORT_DIR unset, so no built report's pages are checked beyond 03's");
    mkdirSync(screenshotDir, { recursive: true });

    const widths = [
      { name: "screen", width: 1280, media: "screen" as const, colorScheme: "light" as const },
      { name: "dark", width: 1280, media: "screen" as const, colorScheme: "dark" as const },
      // Printed from a system in dark mode: a printout is light all the same.
      { name: "print", width: 794, media: "print" as const, colorScheme: "dark" as const },
      // A phone: one column; a wide table keeps its words and scrolls inside its own box, the page does not.
      { name: "phone", width: 390, media: "screen" as const, colorScheme: "light" as const },
    ];
    for (const { name, width, media, colorScheme } of widths) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
      // tsx names the inner functions of inspectPage through a helper the page does not have.
      await context.addInitScript({ content: "globalThis.__name = (f) => f;" });
      const page = await context.newPage();
      await page.emulateMedia({ media });
      const blank = await context.newPage();
      for (const { name: file, path } of targets) {
        await page.goto(pathToFileURL(path).href, { waitUntil: "load" });
        const seen = await page.evaluate(inspectPage);
        const where = `${file}.html at ${width} px (${name})`;
        assert.ok(seen.texts > 10, `${where}: texts were measured`);
        assert.deepEqual(seen.overlaps, [], `${where}: overprinted text`);
        assert.deepEqual(seen.outsideSvg, [], `${where}: chart text outside its chart`);
        assert.equal(seen.pageScrollsSideways, false, `${where}: the page scrolls sideways`);
        if (name !== "phone") {
          assert.deepEqual(seen.scrollBoxes, [], `${where}: scroll boxes`);
          assert.deepEqual(seen.wideElements, [], `${where}: elements past the right edge`);
          assert.deepEqual(seen.brokenWords, [], `${where}: words of table cells broken across lines`);
        } else {
          // Cells still wrap where the text allows a line break; no rule may let them cut a word anywhere.
          const cutting = await page.evaluate(
            () =>
              Array.from(document.querySelectorAll("table.seamlab-table :is(th, td)")).filter(
                (cell) => getComputedStyle(cell).overflowWrap === "anywhere",
              ).length,
          );
          assert.equal(cutting, 0, `${where}: table cells that may cut a word anywhere`);
        }
        assert.deepEqual(await page.evaluate(lowContrastChartTexts), [], `${where}: chart texts that do not read`);
        // The pixels of one chart (a screenshot costs a second or more; the check above reads every chart's colours).
        const card = page.locator("figure.chart .svg-card").first();
        if (file === "chart-fixtures") {
          const white = await blank.evaluate(whiteShare, (await card.screenshot()).toString("base64"));
          // A light chart is mostly white; in dark mode a chart drawn as a white panel was over 80% white.
          if (name === "dark")
            assert.ok(white < 0.1, `${where}: its first chart is ${(100 * white).toFixed(0)}% white`);
          else assert.ok(white > 0.5, `${where}: its first chart is only ${(100 * white).toFixed(0)}% white`);
        }
        if (file === "03-overlap-sweep" && process.env.SEAMLAB_SCREENSHOT_DIR)
          await page.screenshot({ path: join(screenshotDir, `layout-${file}-${name}.png`), fullPage: true });
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
