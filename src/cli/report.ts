// `seamlab report`: re-run the notebooks on a corpus (parameter injection) and render the static HTML report.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { SeamlabError } from "../core/errors";
import { buildReport } from "../report/build";
import { killAllKernels } from "../report/kernel";
import { intFlag, LIMITS, stringFlag } from "./flags";

export const summary = "Run the notebooks on a corpus (parameter injection) and render the static HTML report.";

const HELP = `Usage: seamlab report --corpus PATH [--queries FILE] [--out DIR] [--only 03[,05]] [--timeout S]

Executes notebooks/*.ipynb through the tslab kernel with the corpus (and queries) injected after each
notebook's parameters cell, then writes one HTML page per notebook, the executed .ipynb files and
index.html into --out (default: reports). Exits 1 naming the notebook and cell when a cell fails.

  --corpus PATH     folder or file of .md/.txt documents (required)
  --queries FILE    labelled queries (CSV or JSONL) for the retrieval notebooks
  --out DIR         output folder (default: reports)
  --only LIST       only notebooks whose file name starts with one of these, e.g. 03 or 01,02
  --timeout S       per-cell timeout in seconds (default: 300)
  --jobs N          notebooks run at once, one kernel each (default: 2)
  --no-execute      render the notebooks' saved outputs instead of running them
  --screenshots     also save screenshot-<page>-{light,dark}.png of the index and first notebook (needs chromium)
  --notebooks DIR   where the notebooks are (default: the project's notebooks/)`;

export const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

function existingPath(value: string, flag: string): string {
  const path = isAbsolute(value) ? value : resolve(process.cwd(), value);
  if (!existsSync(path)) throw new SeamlabError(`--${flag} ${value}: no such file or folder.`);
  return path;
}

/** Shared by `seamlab report` (corpus required) and `npm run report` (the notebooks' own defaults). */
export async function runReport(argv: string[], { corpusRequired }: { corpusRequired: boolean }): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: "string" },
      queries: { type: "string" },
      out: { type: "string" },
      only: { type: "string" },
      timeout: { type: "string" },
      jobs: { type: "string" },
      "no-execute": { type: "boolean" },
      screenshots: { type: "boolean" },
      notebooks: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  // Every flag is checked before anything runs: numbers first, then paths.
  const timeoutSeconds = intFlag(values, "timeout", 300, { min: 1, max: 86_400, unit: "seconds" });
  const jobs = intFlag(values, "jobs", 2, { min: 1, max: LIMITS.parallel, unit: "kernels" });
  const parameters: Record<string, unknown> = {};
  if (values.corpus !== undefined || corpusRequired)
    parameters.corpus = existingPath(stringFlag(values, "corpus"), "corpus");
  if (values.queries !== undefined) parameters.queries = existingPath(stringFlag(values, "queries"), "queries");
  const only = values.only
    ? values.only
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean)
    : undefined;
  const outDir = resolve(process.cwd(), values.out ?? "reports");
  const notebooksDir = values.notebooks ? resolve(process.cwd(), values.notebooks) : resolve(projectRoot, "notebooks");
  // Ctrl-C reaches the kernels too (same process group) and tslab treats it as "interrupt", not "exit":
  // stop them ourselves. The previous report stays as it was (nothing is written until the end).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAllKernels();
      process.stderr.write(`seamlab report: stopped by ${signal}; the previous report was left as it was.\n`);
      process.exit(130);
    });
  }
  const result = await buildReport({
    root: projectRoot,
    notebooksDir,
    outDir,
    parameters,
    only,
    cellTimeoutMs: timeoutSeconds * 1000,
    jobs,
    noExecute: values["no-execute"] === true,
    log: (line) => process.stderr.write(line + "\n"),
  });
  for (const failure of result.failures) process.stderr.write(`seamlab report: ${failure}\n`);
  if (values.screenshots) {
    const { screenshotPages } = await import("../report/screenshots");
    const names = ["index", ...result.pages.slice(0, 1).map((page) => page.name)];
    for (const path of await screenshotPages(outDir, names)) process.stderr.write(`screenshot: ${path}\n`);
  }
  return result.ok ? 0 : 1;
}

export async function run(argv: string[]): Promise<number> {
  return runReport(argv, { corpusRequired: true });
}
