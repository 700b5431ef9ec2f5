// `seamlab report`: re-run the notebooks on a corpus (parameter injection) and render the static HTML report.
import { existsSync } from "node:fs";
import { basename, isAbsolute, resolve } from "node:path";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import { totalmem } from "node:os";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { streamCorpus } from "../corpus/load";
import { isSquadSpec } from "../retrieval/query-source";
import { parseQuerySample } from "../retrieval/query-sample";
import { checkQueries, corpusBytes, corpusFromSpec, type ReportCorpus } from "../report/report-inputs";
import { checkOutDir, lockOutDir } from "../report/publish";
import {
  commandFlags,
  commaList,
  flagOptions,
  intFlag,
  LIMITS,
  optionalIntFlag,
  refuseTogether,
  stringFlag,
} from "./flags";
import { readNotebook, declaredParameters } from "../report/nbformat";
import {
  checkSettingsReachNotebooks,
  reportSettingFlags,
  reportSettingsFrom,
  reportSettingsHelp,
} from "./report-settings";
import { parseBudgetMinutes } from "../experiment/budget";
import type { NotebookBudgetPlan } from "../report/budget-notebook";
import { cellTimeoutSeconds, inThreadChars, parseMaxMemory } from "../report/budget-work";
import { pilotDocumentCost, sampledMeasures } from "../report/budget";
import { planBudget } from "../report/plan/choose-budget";
import { readDeclaredWork } from "../report/plan/declared-work";
import type { BudgetProbes } from "../report/plan/types";
import { cpuNow, kernelStartMs, outlineCorpus, retrievalPilotInChild } from "./report-pilot";

const HELP = `Usage: seamlab report --corpus PATH [--queries headers|ict|FILE] [--out DIR] [--only 03[,05]] \
[--timeout S]

Executes notebooks/*.ipynb through the tslab kernel with the corpus (and queries) injected after each
notebook's parameters cell, then writes one HTML page per notebook, the executed .ipynb files and
index.html into --out (default: reports). The report is published only when every notebook succeeded: if a
cell fails, the previous report stays as it was, the failed run's pages go to <out>/.failed/, and the command
exits 1 naming the notebook and cell. Every flag, the corpus, the queries and --out are checked before the
first kernel starts.

  --corpus SPEC     folder, file, glob, default corpus name (moby-dick, fastify-docs) or npm:<pkg>/<path> (required)
  --queries SOURCE  queries of the retrieval notebooks: headers, ict (sentences as queries, any prose) or a
                    labelled file (CSV, JSONL, SQuAD JSON); default: headers when the corpus has them, else ict.
                    With --corpus, notebook 03 draws that corpus only (not the default prose corpus too)
  --query-sample auto|N|all   queries the retrieval notebooks run (their querySample parameter; the corpus is
                    always indexed whole): auto (default) runs up to 1,537 and samples larger sets down to that
                    (any hit rate's 95% CI within ±2.5 points), auto:H for a half-width H, N queries, or all
  --budget MIN      fit the retrieval notebooks (03-07) and the seam cells of 01-02 in MIN minutes: pilots time
                    a sweep's two end configs on 200 queries and 01-02 on 30 documents; the largest query sample
                    and document sample that fit are injected (each said in one line); not with --query-sample.
                    A corpus over 20 M characters is piloted on two seeded samples, extrapolated; 01-02 read only
                    their document sample; when even the fewest queries cannot fit, each notebook does less (fewer
                    overlaps, sections or notebooks left out), said on its page. Each notebook that runs
                    has a time limit, twice its estimate and at least 2 min over it: one past it is stopped
                    and left out (its page says so) and the report is published with the others
  --max-memory GB   with --budget: notebooks run at once only as many as fit this much memory, each kernel
                    estimated from the corpus size (default: half the machine's memory); a corpus over 200 M
                    characters is swept in each kernel's own thread (with or without --budget)
  --out DIR         output folder (default: reports); a folder holding other files needs --force, and even
                    then seamlab replaces only files it wrote
  --force           write the report into a non-empty folder that is not a seamlab report
  --only LIST       only notebooks whose file name starts with one of these, e.g. 03 or 01,02
  --timeout S       per-cell timeout, 1 to 86,400 seconds (default: 300; with --budget, twice the budget when longer)
  --jobs N          notebooks run at once, one kernel each, 1 to 256 (default: 2)
  --no-execute      render the notebooks' saved outputs instead of running them
  --screenshots     also save screenshot-<page>-{light,dark}.png of the index and first notebook (needs chromium)
  --notebooks DIR   where the notebooks are (default: the project's notebooks/)
${reportSettingsHelp}`;

/** The `--budget` planner's pilots, clock and memory as this process has them; its lines go to stderr. */
const budgetProbes: BudgetProbes = {
  log: (line) => process.stderr.write(`seamlab report: ${line}\n`),
  now: () => performance.now(),
  rss: () => process.memoryUsage.rss(),
  corpusBytes,
  outlineCorpus,
  retrievalPilot: retrievalPilotInChild,
  // V8's collector, exposed at run time: what the pilot held is given back before the kernels start.
  collectGarbage: () => {
    v8.setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
  },
  documentPilot: (corpus, ids, cells) =>
    pilotDocumentCost([...streamCorpus(corpus).docs(new Set(ids))], sampledMeasures(cells), cpuNow),
};

/** `--corpus`'s parameters: the extra corpora (03's prose, 01's markdown) belong to the default report only. */
export function corpusParameters(corpus: string): Record<string, string> {
  return { corpus, proseCorpus: "", markdownCorpus: "" };
}

/** Shared by `seamlab report` (corpus required) and `npm run report` (the notebooks' own defaults). */
export async function runReport(argv: string[], { corpusRequired }: { corpusRequired: boolean }): Promise<number> {
  const values = await commandFlags(
    argv,
    {
      ...flagOptions(["corpus", "queries", "query-sample", "budget", "max-memory", "out", "only", "timeout", "jobs"]),
      ...flagOptions(["notebooks"], ["no-execute", "force", "screenshots"]),
      ...reportSettingFlags,
    },
    HELP,
  );
  if (!values) return 0;
  // Every flag is checked before anything runs: numbers first, then --only and --out, then the inputs.
  const timeoutFlag = optionalIntFlag(values, "timeout", { min: 1, max: 86_400, unit: "seconds" });
  const jobs = intFlag(values, "jobs", 2, { min: 1, max: LIMITS.parallel, unit: "kernels" });
  const only = values.only ? commaList(values.only) : undefined;
  if (values["query-sample"] !== undefined) parseQuerySample(values["query-sample"]);
  const budgetMinutes = parseBudgetMinutes(values.budget);
  const timeoutSeconds = cellTimeoutSeconds(timeoutFlag, budgetMinutes);
  const maxBytes = parseMaxMemory(values["max-memory"]);
  if (maxBytes !== undefined && budgetMinutes === undefined)
    throw new SeamlabError("--max-memory needs --budget (the budget's pilot estimates each kernel's memory).");
  refuseTogether(values, "budget", "query-sample", "--budget chooses the query sample; give one or the other.");
  // refused as `retrieve` refuses it: the report would credit --corpus with numbers measured on the file's documents
  if (values.queries !== undefined && isSquadSpec(values.queries))
    refuseTogether(
      values,
      "corpus",
      "queries",
      `the SQuAD file ${values.queries} brings its own documents; label questions on this corpus in a CSV or ` +
        "JSONL file instead.",
    );
  const outDir = resolve(process.cwd(), values.out ?? "reports");
  const notebooksDir = resolve(process.cwd(), values.notebooks || resolve(projectRoot(), "notebooks"));
  const force = values.force === true;
  // Loaded once the flags are read: `--help` needs neither the renderer nor the kernels' client.
  const { buildReport, listNotebooks, reportFileNames } = await import("../report/build");
  const { killAllKernels } = await import("../report/kernel");
  const notebookPaths = listNotebooks(notebooksDir, only);
  checkOutDir(outDir, reportFileNames(notebookPaths), { force });
  const settings = reportSettingsFrom(values);
  if (Object.keys(settings).length > 0) {
    refuseTogether(
      values,
      "budget",
      Object.keys(reportSettingFlags).find((flag) => values[flag as keyof typeof values] !== undefined) ?? "",
      "--budget plans each notebook's own grid; give the settings without --budget, or --budget alone.",
    );
    checkSettingsReachNotebooks(
      settings,
      new Map(notebookPaths.map((path) => [basename(path, ".ipynb"), declaredParameters(readNotebook(path))])),
    );
    const described = Object.entries(settings).map(([name, value]) => `${name} = ${JSON.stringify(value)}`);
    process.stderr.write(`seamlab report: settings ${described.join(", ")}\n`);
  }
  const parameters: Record<string, unknown> = {};
  const hide: [string, string][] = [];
  let corpus: ReportCorpus | undefined;
  if (values.corpus !== undefined || corpusRequired) {
    corpus = corpusFromSpec(stringFlag(values, "corpus"));
    Object.assign(parameters, corpusParameters(corpus.parameter));
    if (corpus.parameter !== corpus.label) hide.push([corpus.parameter, corpus.label]);
  }
  if (values["query-sample"] !== undefined) parameters.querySample = values["query-sample"].trim();
  const given = values.queries === undefined ? undefined : stringFlag(values, "queries");
  if (given !== undefined) {
    // built from the corpus (headers, ict) or placed in it (a labelled file): checked now
    const builtIn = given === "headers" || given === "ict";
    const queries = builtIn || isAbsolute(given) ? given : resolve(process.cwd(), given);
    if (!builtIn && !existsSync(queries)) throw new SeamlabError(`--queries ${given}: no such file or folder.`);
    if (corpus) checkQueries(given, queries, corpus);
    parameters.queries = queries;
    if (queries !== given || isAbsolute(given)) hide.push([queries, isAbsolute(given) ? basename(queries) : given]);
  }
  let runJobs = jobs;
  let notebookPlans: Record<string, NotebookBudgetPlan> | undefined;
  // A corpus over 200 M characters is swept in each kernel's own thread: a worker thread would hold its own copy.
  let kernelWorkers: number | undefined =
    corpus && process.env.SEAMLAB_WORKERS === undefined && corpusBytes(corpus.parameter) > inThreadChars
      ? 0
      : undefined;
  if (budgetMinutes !== undefined) {
    const decision = await planBudget(
      {
        budgetMinutes,
        names: notebookPaths.map((path) => basename(path)),
        declared: readDeclaredWork(listNotebooks(notebooksDir)),
        requestedJobs: jobs,
        maxBytes: maxBytes ?? totalmem() / 2,
        corpus: typeof parameters.corpus === "string" ? parameters.corpus : undefined,
        queries: typeof parameters.queries === "string" ? parameters.queries : undefined,
        workersEnv: process.env.SEAMLAB_WORKERS,
        kernelStartMs,
      },
      budgetProbes,
    );
    Object.assign(parameters, decision.parameters);
    notebookPlans = decision.plans;
    runJobs = decision.jobs;
    kernelWorkers = decision.kernelWorkers ?? kernelWorkers;
  } else if (kernelWorkers === 0) {
    process.stderr.write(
      `seamlab report: corpus over ${(inThreadChars / 1e6).toFixed(0)} M characters: each notebook's sweeps run in ` +
        `its kernel's own thread (a worker thread would hold its own copy of the corpus).\n`,
    );
  }
  // Ctrl-C reaches the kernels too, and tslab treats it as "interrupt", not "exit": stop them ourselves.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAllKernels();
      process.stderr.write(`seamlab report: stopped by ${signal}; the previous report was left as it was.\n`);
      process.exit(130);
    });
  }
  lockOutDir(outDir); // a second report into the same folder is refused until this process exits
  const result = await buildReport({
    root: projectRoot(),
    notebooksDir,
    outDir,
    parameters,
    settings,
    only,
    cellTimeoutMs: timeoutSeconds * 1000,
    jobs: runJobs,
    notebookPlans,
    budgetMinutes,
    kernelWorkers,
    force,
    corpusLabel: corpus?.label,
    hide,
    noExecute: values["no-execute"] === true,
    log: (line) => process.stderr.write(line + "\n"),
  });
  for (const failure of result.failures) process.stderr.write(`seamlab report: ${failure}\n`);
  if (!result.ok)
    process.stderr.write(
      `seamlab report: ${result.failures.length} problem(s); the report was NOT published and ` +
        `${outDir} was left as it was. This run's pages are in ${resolve(outDir, ".failed")}/.\n`,
    );
  if (values.screenshots && result.ok) {
    const { screenshotPages } = await import("../report/screenshots");
    const names = ["index", ...result.pages.slice(0, 1).map((page) => page.name)];
    for (const path of await screenshotPages(outDir, names)) process.stderr.write(`screenshot: ${path}\n`);
  }
  return result.ok ? 0 : 1;
}

export async function run(argv: string[]): Promise<number> {
  return runReport(argv, { corpusRequired: true });
}
