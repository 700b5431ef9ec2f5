// End to end: run + render a fixture notebook, then open the report in headless Chromium (Debian's) with
// playwright-core: no console errors, no request other than the page's own file:/data: URLs, no script from
// the corpus runs, every chart is an SVG with marks; screenshots (light and dark) are saved.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildReport } from "../../src/report/build";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../src/report/screenshots";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const CHROMIUM = CHROMIUM_PATH;
// Kept after the test (outside the deleted work dir) so a reviewer can look at them.
const screenshotDir = process.env.SEAMLAB_SCREENSHOT_DIR ?? join(tmpdir(), "seamlab-e2e-screenshots");

test("the rendered report opens in headless Chromium with working charts, no network and no console errors", async (t) => {
  if (!existsSync(CHROMIUM)) {
    const reason = `${CHROMIUM} not installed (apt-get install chromium)`;
    console.log(`# skipping the browser test: ${reason}`);
    t.skip(reason);
    return;
  }
  const { chromium } = await import("playwright-core");
  const work = mkdtempSync(join(tmpdir(), "seamlab-e2e-"));
  try {
    const notebooks = join(work, "notebooks");
    mkdirSync(notebooks);
    copyFileSync(
      join(here, "..", "fixtures", "notebooks", "every-output.ipynb"),
      join(notebooks, "01-every-output.ipynb"),
    );
    const out = join(work, "reports");
    const result = await buildReport({
      root,
      notebooksDir: notebooks,
      outDir: out,
      parameters: { corpus: "<img src=x onerror=alert(1)>" },
      cellTimeoutMs: 120_000,
    });
    assert.equal(result.ok, true, result.failures.join("\n"));

    const context = await chromium.launchPersistentContext(join(work, "profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1200, height: 900 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const problems: string[] = [];
      const requests: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning")
          problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("dialog", (dialog) => {
        problems.push(`a dialog opened (corpus script ran): ${dialog.message()}`);
        void dialog.dismiss();
      });
      context.on("request", (request) => requests.push(request.url()));

      const pages = [join(out, "index.html"), join(out, "01-every-output.html")].map(
        (path) => pathToFileURL(path).href,
      );
      for (const url of pages) {
        await page.goto(url, { waitUntil: "load" });
        await page.waitForTimeout(200);
      }
      const charts = await page.$$eval("figure.chart", (figures) =>
        figures.map((figure) => {
          const svg = figure.querySelector("svg");
          return {
            svg: Boolean(svg),
            marks: svg
              ? svg.querySelectorAll("g[class*='mark-'] path, g[class*='mark-'] line, g[class*='mark-'] text").length
              : 0,
          };
        }),
      );
      assert.equal(charts.length, 2);
      for (const chart of charts) {
        assert.ok(chart.svg, "chart is an SVG");
        assert.ok(chart.marks > 0, "chart SVG has marks");
      }
      const download = await page.$$eval("p.download a", (links) =>
        links.map((link) => link.getAttribute("href")?.slice(0, 22)),
      );
      assert.ok(download.length >= 6 && download.every((href) => href?.startsWith("data:")));

      const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await page.click("#theme-toggle");
      const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.notEqual(light, dark, "the toggle switches themes");
      const dir = screenshotDir;
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, "e2e-notebook-dark.png"), fullPage: true });
      await page.click("#theme-toggle");
      await page.screenshot({ path: join(dir, "e2e-notebook-light.png"), fullPage: true });
      assert.ok(existsSync(join(dir, "e2e-notebook-light.png")));
      console.log(`# screenshots: ${join(dir, "e2e-notebook-light.png")} and e2e-notebook-dark.png`);

      assert.deepEqual(problems, []);
      assert.ok(requests.length >= 2, "requests were recorded");
      const foreign = requests.filter((url) => !url.startsWith("data:") && !pages.includes(url));
      assert.deepEqual(foreign, [], "no request leaves the page");
    } finally {
      await context.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
