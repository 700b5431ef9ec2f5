// Screenshots of report pages in light and dark mode with headless Chromium, through playwright-core (a dev
// dependency, loaded only when asked for).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SeamlabError } from "../core/errors";

export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Saves `screenshot-<page>-light.png` and `-dark.png` next to the pages; returns the paths written. */
export async function screenshotPages(outDir: string, pageNames: string[]): Promise<string[]> {
  if (!existsSync(CHROMIUM_PATH))
    throw new SeamlabError(`--screenshots needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium).`);
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const written: string[] = [];
  try {
    for (const scheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, colorScheme: scheme });
      const page = await context.newPage();
      for (const name of pageNames) {
        await page.goto(pathToFileURL(join(outDir, `${name}.html`)).href, { waitUntil: "load" });
        const path = join(outDir, `screenshot-${name}-${scheme}.png`);
        await page.screenshot({ path, fullPage: true });
        written.push(path);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return written;
}
