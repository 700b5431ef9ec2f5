// `seamlab report`: re-run the notebooks on a corpus (parameter injection) and render the static HTML report.
import { existsSync } from "node:fs";
import { basename, isAbsolute, resolve } from "node:path";
import { parseArgs } from "node:util";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import { loadCorpus, streamCorpus } from "../corpus/load";
import { documentSample } from "../corpus/sample";
import { loadLabelledSet } from "../corpus/labelled";
import { buildQuerySet } from "../retrieval/query-source";
import { parseQuerySample } from "../retrieval/query-sample";
import { buildReport, listNotebooks, reportFileNames } from "../report/build";
import { killAllKernels } from "../report/kernel";
import { checkOutDir } from "../report/publish";
import { commaList, intFlag, LIMITS, refuseTogether, stringFlag } from "./flags";
import { parseBudgetMinutes } from "../experiment/budget";
import { pilotSweepCost } from "../experiment/budget-pilot";
import { sweepConfigs } from "../experiment/sweep";
import { defaultCorpus } from "../corpus/defaults";
import {
  chooseDocumentBudget,
  chooseReportBudget,
  documentNotebooks,
  documentPilotSize,
  notebookWorkload,
  pilotDocumentCost,
} from "../report/budget";
import { loadRetrievalInputs } from "../study/inputs";

export const summary = "Run the notebooks on a corpus (parameter injection) and render the static HTML report.";

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
  --budget MIN      fit the retrieval notebooks (03-06) and the seam cells of 01-02 in MIN minutes: pilots time
                    a sweep's two end configs on 200 queries and 01-02 on 30 documents; the largest query sample
                    and document sample that fit are injected (each said in one line); not with --query-sample
  --out DIR         output folder (default: reports); a folder holding other files needs --force, and even
                    then seamlab replaces only files it wrote
  --force           write the report into a non-empty folder that is not a seamlab report
  --only LIST       only notebooks whose file name starts with one of these, e.g. 03 or 01,02
  --timeout S       per-cell timeout, 1 to 86,400 seconds (default: 300)
  --jobs N          notebooks run at once, one kernel each, 1 to 256 (default: 2)
  --no-execute      render the notebooks' saved outputs instead of running them
  --screenshots     also save screenshot-<page>-{light,dark}.png of the index and first notebook (needs chromium)
  --notebooks DIR   where the notebooks are (default: the project's notebooks/)`;

function existingPath(value: string, flag: string): string {
  const path = isAbsolute(value) ? value : resolve(process.cwd(), value);
  if (!existsSync(path)) throw new SeamlabError(`--${flag} ${value}: no such file or folder.`);
  return path;
}

/**
 * The corpus as the notebooks should load it (a path made absolute, since kernels start at the project root; a
 * default name or npm: spec as given), and the label pages show instead of an absolute path. It is checked here,
 * before any kernel starts, by reading files only until the first non-empty one: the report process never holds
 * the whole corpus (each kernel loads what it needs), so a 1 GB corpus is not in memory once more while they run.
 */
function corpusFromSpec(spec: string): { parameter: string; label: string } {
  const path = isAbsolute(spec) ? spec : resolve(process.cwd(), spec);
  const isPath = existsSync(path);
  const parameter = isPath ? path : spec;
  // listing throws on a corpus with no .md/.txt file, and the stream on one whose files are all empty
  streamCorpus(parameter).docs().next();
  return { parameter, label: isPath && isAbsolute(spec) ? basename(path) : spec };
}

/**
 * `--queries headers|ict|FILE` checked against the corpus before any kernel starts: a corpus without headings, one
 * too small for ICT, or a labelled file none of whose questions can be placed fails now. The corpus is loaded for
 * this check only and dropped when it returns.
 */
function checkQueries(given: string, queriesPath: string, corpus: { parameter: string; label: string }): void {
  const { docs } = loadCorpus(corpus.parameter);
  if (given === "headers" || given === "ict") {
    buildQuerySet(given, docs, { corpusName: corpus.label, headers: { includeH3: true } });
    return;
  }
  const set = loadLabelledSet(queriesPath, docs, { skipMalformed: true });
  if (set.queries.length === 0)
    throw new SeamlabError(`--queries ${given}: no question could be placed in --corpus ${corpus.label}.`);
}

/**
 * `--budget`: pilot on the corpus and queries the retrieval notebooks will load (every query), then the query sample
 * that fits; prints the line saying what was chosen. Undefined when no chosen notebook runs retrieval queries.
 */
async function budgetQuerySample(
  budgetMinutes: number,
  notebooks: string[],
  jobs: number,
  parameters: Record<string, unknown>,
  spentMs = 0,
): Promise<string | number | undefined> {
  const say = (line: string) => process.stderr.write(`seamlab report: ${line}\n`);
  if (!notebooks.some((name) => notebookWorkload[name.slice(0, 2)] !== undefined)) {
    say(`budget ${budgetMinutes} min: none of these notebooks runs retrieval queries; nothing to choose.`);
    return undefined;
  }
  const corpus = typeof parameters.corpus === "string" ? parameters.corpus : defaultCorpus("markdown");
  const queries = typeof parameters.queries === "string" ? parameters.queries : undefined;
  const inputs = loadRetrievalInputs(corpus, queries, { querySample: "all" });
  const configs = sweepConfigs({ splitter: "langchain", size: 1000, overlaps: [0, 500], ks: [5] });
  const pilot = await pilotSweepCost(inputs, configs);
  const choice = chooseReportBudget({
    budgetMinutes,
    notebooks,
    jobs,
    model: pilot.model,
    spentMs: spentMs + pilot.spentMs,
    population: inputs.queries.length,
  });
  say(choice.line);
  return choice.queries >= inputs.queries.length ? "all" : choice.queries;
}

/**
 * `--budget` for notebooks 01 and 02: a pilot times their sampled cells on a few documents of the corpus they load,
 * and the document sample that fits their share of the budget is chosen (said in one line). Returns the sample to
 * inject (undefined keeps auto) and the time that part is estimated to take off the whole run (pilot included),
 * which the retrieval notebooks' choice then leaves out of theirs.
 */
function budgetDocumentSample(
  budgetMinutes: number,
  notebooks: string[],
  jobs: number,
  parameters: Record<string, unknown>,
): { sample?: number; spentMs: number } {
  const prefixes = notebooks.map((name) => name.slice(0, 2)).filter((prefix) => documentNotebooks[prefix]);
  if (prefixes.length === 0) return { spentMs: 0 };
  const corpus = typeof parameters.corpus === "string" ? parameters.corpus : defaultCorpus("prose");
  // Lengths from one pass over the corpus (one file in memory at a time), then only the pilot's documents are read:
  // the same seeded stratified sample `pilotDocumentCost` would draw from the whole corpus.
  const stream = streamCorpus(corpus);
  const outlines = Array.from(stream.docs(), (doc) => ({ id: doc.id, length: doc.text.length }));
  const pilotIds = documentSample(outlines, Math.min(outlines.length, documentPilotSize)).docs.map((doc) => doc.id);
  const pilot = pilotDocumentCost([...stream.docs(new Set(pilotIds))], prefixes);
  const modelled = notebooks.filter((name) => notebookWorkload[name.slice(0, 2)] !== undefined).length;
  const choice = chooseDocumentBudget({
    budgetMinutes,
    perCharMs: pilot.perCharMs,
    modelledNotebooks: prefixes.length + modelled,
    jobs,
    spentMs: pilot.spentMs,
    docLengths: outlines.map((doc) => doc.length),
  });
  process.stderr.write(`seamlab report: ${choice.line}\n`);
  return { sample: choice.sample, spentMs: pilot.spentMs + choice.estimatedMs };
}

/** Shared by `seamlab report` (corpus required) and `npm run report` (the notebooks' own defaults). */
export async function runReport(argv: string[], { corpusRequired }: { corpusRequired: boolean }): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: "string" },
      queries: { type: "string" },
      "query-sample": { type: "string" },
      budget: { type: "string" },
      out: { type: "string" },
      only: { type: "string" },
      timeout: { type: "string" },
      jobs: { type: "string" },
      "no-execute": { type: "boolean" },
      force: { type: "boolean" },
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
  // Every flag is checked before anything runs: numbers first, then --only and --out, then the inputs.
  const timeoutSeconds = intFlag(values, "timeout", 300, { min: 1, max: 86_400, unit: "seconds" });
  const jobs = intFlag(values, "jobs", 2, { min: 1, max: LIMITS.parallel, unit: "kernels" });
  const only = values.only ? commaList(values.only) : undefined;
  if (values["query-sample"] !== undefined) {
    parseQuerySample(values["query-sample"]); // a bad value stops here, before any kernel starts
  }
  const budgetMinutes = parseBudgetMinutes(values.budget);
  refuseTogether(values, "budget", "query-sample", "--budget chooses the query sample; give one or the other.");
  const outDir = resolve(process.cwd(), values.out ?? "reports");
  const notebooksDir = values.notebooks
    ? resolve(process.cwd(), values.notebooks)
    : resolve(projectRoot(), "notebooks");
  const force = values.force === true;
  checkOutDir(outDir, reportFileNames(listNotebooks(notebooksDir, only)), { force });
  const parameters: Record<string, unknown> = {};
  const hide: [string, string][] = [];
  let corpus: { parameter: string; label: string } | undefined;
  if (values.corpus !== undefined || corpusRequired) {
    corpus = corpusFromSpec(stringFlag(values, "corpus"));
    parameters.corpus = corpus.parameter;
    if (corpus.parameter !== corpus.label) hide.push([corpus.parameter, corpus.label]);
    // notebook 03's extra prose-corpus section (Moby-Dick by default) belongs to the default report only
    parameters.proseCorpus = "";
  }
  const corpusLabel = corpus?.label;
  if (values["query-sample"] !== undefined) parameters.querySample = values["query-sample"].trim();
  const given = values.queries === undefined ? undefined : stringFlag(values, "queries");
  if (given !== undefined) {
    // built from the corpus (headers, ict) or placed in it (a labelled file): checked now
    const queries = given === "headers" || given === "ict" ? given : existingPath(given, "queries");
    if (corpus) checkQueries(given, queries, corpus);
    parameters.queries = queries;
    if (queries !== given || isAbsolute(given)) hide.push([queries, isAbsolute(given) ? basename(queries) : given]);
  }
  if (budgetMinutes !== undefined) {
    const names = listNotebooks(notebooksDir, only).map((path) => basename(path));
    const documents = budgetDocumentSample(budgetMinutes, names, jobs, parameters);
    if (documents.sample !== undefined) parameters.sample = documents.sample;
    const chosen = await budgetQuerySample(budgetMinutes, names, jobs, parameters, documents.spentMs);
    if (chosen !== undefined) parameters.querySample = chosen;
  }
  // Ctrl-C reaches the kernels too (same process group) and tslab treats it as "interrupt", not "exit":
  // stop them ourselves. The previous report stays as it was (nothing is published until the end).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAllKernels();
      process.stderr.write(`seamlab report: stopped by ${signal}; the previous report was left as it was.\n`);
      process.exit(130);
    });
  }
  const result = await buildReport({
    root: projectRoot(),
    notebooksDir,
    outDir,
    parameters,
    only,
    cellTimeoutMs: timeoutSeconds * 1000,
    jobs,
    force,
    corpusLabel,
    hide,
    noExecute: values["no-execute"] === true,
    log: (line) => process.stderr.write(line + "\n"),
  });
  for (const failure of result.failures) process.stderr.write(`seamlab report: ${failure}\n`);
  if (!result.ok) {
    process.stderr.write(
      `seamlab report: ${result.failures.length} problem(s); the report was NOT published and ` +
        `${outDir} was left as it was. This run's pages are in ${resolve(outDir, ".failed")}/.\n`,
    );
  }
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
