// `seamlab report`: re-run the notebooks on a corpus (parameter injection) and render the static HTML report.
import { existsSync, statSync } from "node:fs";
import { basename, isAbsolute, resolve } from "node:path";
import { parseArgs } from "node:util";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import { totalmem } from "node:os";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { listCorpus, loadCorpus, streamCorpus } from "../corpus/load";
import { documentSample } from "../corpus/sample";
import { loadLabelledSet } from "../corpus/labelled";
import { buildQuerySet, isSquadSpec } from "../retrieval/query-source";
import { parseQuerySample } from "../retrieval/query-sample";
import { buildReport, listNotebooks, reportFileNames, workersPerKernel } from "../report/build";
import { killAllKernels } from "../report/kernel";
import { checkOutDir, lockOutDir } from "../report/publish";
import { commaList, intFlag, LIMITS, refuseTogether, stringFlag } from "./flags";
import { readNotebook, declaredParameters } from "../report/nbformat";
import {
  checkSettingsReachNotebooks,
  describeSettings,
  reportSettingFlags,
  reportSettingsFrom,
  reportSettingsHelp,
} from "./report-settings";
import { chooseQueryBudget, parallelThroughput, parseBudgetMinutes } from "../experiment/budget";
import type { NotebookBudgetPlan } from "../report/budget-notebook";
import {
  chooseJobs,
  cellTimeoutSeconds,
  chooseNotebookWork,
  fullestLevelWithin,
  defaultCellTimeoutSeconds,
  inThreadChars,
  kernelBaseBytes,
  kernelBytes,
  notebookLevels,
  minutes,
  notebookMs,
  notebookPriority,
  notebookTimeLimitMs,
  parseMaxMemory,
  reservedLeastMs,
  type WorkCosts,
  workLine,
  workNote,
  type JobsChoice,
} from "../report/budget-work";
import { defaultCorpus } from "../corpus/defaults";
import {
  chooseDocumentBudget,
  chooseReportBudget,
  documentNotebooks,
  documentPilotSize,
  minBudgetDocuments,
  notebookWorkload,
  type DocumentBudgetChoice,
  pilotDocumentCost,
} from "../report/budget";
import { cpuNow, kernelStartMs, outlineCorpus, retrievalPilotInChild, type CorpusOutline } from "./report-pilot";
import { thousands } from "../stats/format";

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
    buildQuerySet(given, docs, { corpusName: corpus.label });
    return;
  }
  const set = loadLabelledSet(queriesPath, docs, { skipMalformed: true });
  if (set.queries.length === 0)
    throw new SeamlabError(`--queries ${given}: no question could be placed in --corpus ${corpus.label}.`);
}

/** The corpus's size in bytes from its listing (no file read): about its characters, for choosing threads. */
function corpusBytes(spec: string): number {
  return listCorpus(spec).files.reduce((sum, file) => sum + statSync(file.path).size, 0);
}

/** V8's collector, exposed at run time: what the pilot held is given back before the kernels start. */
function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/**
 * The document sample 01-02 keep at least before the budget is set aside for the other notebooks' least work: below
 * it, a notebook later in the priority order is not reserved for (at 1 GB, reserving for every notebook that fitted
 * left 01-02 a few seconds, and the plan then left out two notebooks by a few seconds).
 */
const reserveFloorDocuments = 1_000;

/** The query sample the reduced work is planned at: a hit rate's 95% CI within about ±5 points. */
const plannedQueryCount = 400;

/** What `--budget` chose for the whole run: values injected into every notebook, per-notebook plans, and jobs. */
interface BudgetDecision {
  parameters: Record<string, unknown>;
  plans: Record<string, NotebookBudgetPlan>;
  jobs: number;
  /** Worker threads per kernel when the default share would copy a large corpus into each. */
  kernelWorkers?: number;
}

/**
 * `--budget` (and `--max-memory`): pilots, then the document sample of 01-02, the notebooks at once, the query
 * sample, and, when even that does not fit, less work per notebook; each choice said in one line on stderr and the
 * reductions on the notebooks' pages. Throws a SeamlabError naming --budget when not even the least work fits.
 */
async function chooseBudget(
  budgetMinutes: number,
  names: string[],
  requestedJobs: number,
  parameters: Record<string, unknown>,
  maxBytes: number,
): Promise<BudgetDecision> {
  const say = (line: string) => process.stderr.write(`seamlab report: ${line}\n`);
  const decision: BudgetDecision = { parameters: {}, plans: {}, jobs: requestedJobs };
  const prefixes = names.map((name) => name.slice(0, 2));
  const outlines = new Map<string, CorpusOutline>();
  const outlineOf = (spec: string) => outlines.get(spec) ?? outlines.set(spec, outlineCorpus(spec)).get(spec)!;
  const started = performance.now();
  const retrieval = prefixes.filter((prefix) => notebookWorkload[prefix] !== undefined);
  const docPrefixes = prefixes.filter((prefix) => documentNotebooks[prefix]);
  // The retrieval pilot first: it sizes each kernel's memory, hence how many notebooks run at once.
  const corpus = typeof parameters.corpus === "string" ? parameters.corpus : defaultCorpus("markdown");
  const queries = typeof parameters.queries === "string" ? parameters.queries : undefined;
  // Validate before expensive work: when every retrieval notebook's kernel alone is over --max-memory, none of them
  // runs and the pilot would measure nothing that is used. The corpus's bytes (from its listing, no file read) bound
  // its characters from above; only when even that bound says "over" is the corpus read for its exact size.
  const retrievalOverMemory =
    retrieval.length > 0 &&
    retrieval.every((p) => kernelBytes(p, corpusBytes(corpus), 0) > maxBytes - process.memoryUsage.rss()) &&
    retrieval.every((p) => kernelBytes(p, outlineOf(corpus).chars, 0) > maxBytes - process.memoryUsage.rss());
  if (retrievalOverMemory) say(`every retrieval notebook's kernel alone is over --max-memory: no retrieval pilot.`);
  // In a child process, so that what it holds is not kept in this one beside the kernels: its outline of the
  // corpus comes back with it.
  const pilotRun =
    retrieval.length > 0 && !retrievalOverMemory ? await retrievalPilotInChild(corpus, queries) : undefined;
  if (pilotRun) outlines.set(corpus, pilotRun.outline);
  const pilot = pilotRun?.pilot;
  collectGarbage(); // what the pilot held is given back before the kernels start
  const corpusChars = retrieval.length > 0 ? outlineOf(corpus).chars : 0;
  const pilotLine = !pilot
    ? ""
    : pilot.scale > 1 && pilot.smallSampleChars !== undefined
      ? `piloted in CPU time on seeded samples of ${thousands(pilot.smallSampleChars)} and ` +
        `${thousands(pilot.sampleChars)} of ${thousands(corpusChars)} characters, ` +
        `costs extrapolated along the line through both (at most ×${pilot.scale.toFixed(1)})`
      : pilot.scale > 1
        ? `piloted in CPU time on a seeded sample of ${thousands(pilot.sampleChars)} of ` +
          `${thousands(corpusChars)} characters, costs scaled ×${pilot.scale.toFixed(1)}`
        : `piloted in CPU time on the whole corpus`;
  // 01 and 02: their sampled seam cells, piloted on 30 documents, each given its share of the budget; then each
  // kernel's memory, hence how many notebooks run at once
  let memory: JobsChoice | undefined;
  let jobs = requestedJobs;
  // Above 200 M characters the kernels sweep in their own thread, as `seamlab sweep` does: each worker thread would
  // hold its own copy of the corpus (3 copies of 1 GB with the default 2 threads).
  const inThread = corpusChars > inThreadChars && process.env.SEAMLAB_WORKERS === undefined;
  if (inThread) {
    decision.kernelWorkers = 0;
    say(
      `corpus over ${(inThreadChars / 1e6).toFixed(0)} M characters: each notebook's sweeps run in its kernel's ` +
        `own thread (a worker thread would hold its own copy of the corpus).`,
    );
  }
  // The most notebooks at once whose kernels fit: fewer at once means more worker threads each (and, below 200 M
  // characters, a copy of the corpus per thread), so each count is estimated with its own threads.
  const memoryJobs = (charsOf: (prefix: string) => number, from = requestedJobs): JobsChoice => {
    for (let at = from; ; at--) {
      const workers = Number(process.env.SEAMLAB_WORKERS ?? (inThread ? 0 : workersPerKernel(at)));
      const kernels = Object.fromEntries(prefixes.map((p) => [p, kernelBytes(p, charsOf(p), workers)]));
      const choice = chooseJobs({ requested: at, maxBytes, reportBytes: process.memoryUsage.rss(), kernels });
      if (choice.jobs === at || at <= 1) return choice;
    }
  };
  // The least work of the retrieval notebooks, as the plan below counts it (400 queries), kept out of 01-02's share
  // of the budget: in priority order, each whose kernel fits --max-memory and whose least work still fits beside
  // those before it and 01-02's loads (`docLoadsMs`). One that does not fit is left out by the plan anyway: reserving
  // for every one took 01-02 down to 20 documents at 1 GB.
  const reservedFor = (parallel: number, docLoadsMs: number, docFloorMs: number) => {
    if (!pilot) return 0;
    // what is left beside 01-02's loads and the cells of a floor sample (`reserveFloorDocuments`) of each
    const throughput = parallelThroughput(parallel);
    const leftMs = budgetMinutes * 60_000 - (performance.now() - started) - (docLoadsMs + docFloorMs) / throughput;
    const least = {
      splitMs: pilot.model.fixedMs,
      queryMs: pilot.model.perQueryMs,
      loadMs: pilot.loadMs,
      queries: Math.min(pilot.population, plannedQueryCount),
      corpusChars,
      sampleLoadMs: (share: number) => kernelStartMs + outlineOf(corpus).readMs * (1 + share),
    };
    const fitting = notebookPriority
      .filter((p) => retrieval.includes(p))
      .filter((p) => kernelBytes(p, corpusChars, 0) <= maxBytes - process.memoryUsage.rss());
    // 01-02's own loads count too: the share below is of their sampled cells only (without them, the last notebook
    // reserved for no longer fitted beside 01-02 in the plan)
    return (
      reservedLeastMs(
        fitting.map((p) => notebookMs(p, notebookLevels[p].length - 1, least) / throughput),
        leftMs,
      ) +
      docLoadsMs / throughput
    );
  };
  const docCostMs: Record<string, number> = {};
  const docLoadMs: Record<string, number> = {};
  let docSampleNote = "";
  if (docPrefixes.length > 0) {
    const proseCorpus = typeof parameters.corpus === "string" ? parameters.corpus : defaultCorpus("prose");
    const outline = outlineOf(proseCorpus);
    const pilotIds = documentSample(outline.outlines, Math.min(outline.outlines.length, documentPilotSize)).docs;
    const docPilot = pilotDocumentCost(
      [...streamCorpus(proseCorpus).docs(new Set(pilotIds.map((d) => d.id)))],
      docPrefixes,
      cpuNow,
    );
    const chooseDocs = (parallel: number) =>
      chooseDocumentBudget({
        budgetMinutes,
        perCharMs: docPilot.perCharMs,
        modelledNotebooks: docPrefixes.length + retrieval.length,
        jobs: parallel,
        spentMs: performance.now() - started,
        docLengths: outline.outlines.map((doc) => doc.length),
        reservedMs: reservedFor(
          parallel,
          docPrefixes.length * (kernelStartMs + outline.readMs),
          docPrefixes.reduce(
            (sum, p) => sum + docPilot.perCharMs[p] * (outline.chars / Math.max(1, outline.outlines.length)),
            0,
          ) * Math.min(outline.outlines.length, reserveFloorDocuments),
        ),
      });
    // 01 and 02 hold their sample only: no more documents than one kernel can hold under --max-memory
    const population = outline.outlines.length;
    const meanChars = outline.chars / Math.max(1, population);
    const perChar = Math.max(...docPrefixes.map((prefix) => kernelBytes(prefix, 1) - kernelBaseBytes));
    const roomChars = (maxBytes - process.memoryUsage.rss() - kernelBaseBytes) / perChar;
    const holdable = Math.max(minBudgetDocuments, Math.floor(roomChars / meanChars));
    const capped = (choice: DocumentBudgetChoice): DocumentBudgetChoice =>
      (choice.sample ?? population) <= holdable
        ? choice
        : {
            sample: holdable,
            estimatedMs: (choice.estimatedMs * holdable) / (choice.sample ?? population),
            line:
              `${choice.line} Capped at ${thousands(holdable)} documents by --max-memory ` +
              `(${(maxBytes / 1024 ** 3).toFixed(1)} GB; a kernel holds about ${perChar} bytes per character ` +
              `of its sample).`,
          };
    let choice = capped(chooseDocs(jobs));
    // each kernel's memory, hence how many notebooks run at once
    const charsOf = (sample: DocumentBudgetChoice) => (prefix: string) =>
      docPrefixes.includes(prefix) ? (sample.sample ?? population) * meanChars : corpusChars;
    memory = memoryJobs(charsOf(choice));
    if (memory.jobs < jobs) {
      // fewer at once: 01 and 02 get a smaller sample, and the line names their kernels as they will run (it gave
      // the larger sample's, e.g. 2.50 GB for a kernel then run on half the documents and peaking at 1.30 GB)
      choice = capped(chooseDocs((jobs = memory.jobs)));
      const requested = memory.line.match(/ \(of --jobs \d+\)/)?.[0] ?? "";
      memory = memoryJobs(charsOf(choice), jobs);
      memory = { ...memory, line: memory.line.replace(/ at a time(?! \(of)/, ` at a time${requested}`) };
    }
    say(memory.line);
    say(choice.line);
    const measured = choice.sample ?? outline.outlines.length;
    if (choice.sample !== undefined) {
      decision.parameters.sample = choice.sample;
      docSampleNote =
        `this notebook read only a seeded stratified sample of ${thousands(choice.sample)} of ` +
        `${thousands(outline.outlines.length)} documents (the sample that fits its share of ` +
        `\`--budget ${budgetMinutes}\`, from a pilot on ${documentPilotSize}); every figure below is on that sample, ` +
        `with 95% CIs from a cluster bootstrap over documents.`;
    }
    for (const prefix of docPrefixes) {
      docCostMs[prefix] = docPilot.perCharMs[prefix] * meanChars * measured;
      // one pass over the corpus for the outlines, then the sample read again
      docLoadMs[prefix] = kernelStartMs + outline.readMs * (1 + measured / Math.max(1, outline.outlines.length));
    }
  }
  if (!memory) {
    memory = memoryJobs(() => corpusChars);
    say(memory.line);
    jobs = memory.jobs;
  }
  decision.jobs = jobs;
  const memoryChoice = memory;
  // A notebook whose kernel alone is over --max-memory does not run, whatever the time budget allows: its page says
  // so, and the time estimates below leave it out.
  const overMemory = new Set(memoryChoice.overLimit);
  if (retrievalOverMemory) for (const prefix of retrieval) overMemory.add(prefix);
  const memoryNote = (prefix: string) =>
    workNote(
      { prefix, level: -1, estimatedMs: 0, fullMs: 0, leastMs: 0 },
      { budgetMinutes, corpusChars, kernelBytes: kernelBytes(prefix, corpusChars), maxBytes },
    );
  const docNotes = () => {
    for (const prefix of docPrefixes)
      if (docSampleNote && !overMemory.has(prefix)) decision.plans[prefix] = { note: docSampleNote };
    for (const prefix of overMemory) decision.plans[prefix] = { skipAll: true, note: memoryNote(prefix) };
  };
  const runnable = names.filter((name) => !overMemory.has(name.slice(0, 2)));
  // The fullest work each notebook may do within --max-memory: its kernel beside the `jobs - 1` largest others at
  // their least (03's dense and query-source sweeps, 05's retriever comparison hold more than their least work).
  const fullest: Record<string, number> = {};
  {
    const workers = Number(process.env.SEAMLAB_WORKERS ?? (inThread ? 0 : workersPerKernel(jobs)));
    const room = maxBytes - process.memoryUsage.rss();
    const least = (prefix: string) => kernelBytes(prefix, docPrefixes.includes(prefix) ? 0 : corpusChars, workers);
    for (const name of runnable) {
      const prefix = name.slice(0, 2);
      const others = runnable
        .map((other) => other.slice(0, 2))
        .filter((other) => other !== prefix)
        .map(least)
        .sort((a, b) => b - a)
        .slice(0, jobs - 1)
        .reduce((a, b) => a + b, 0);
      fullest[prefix] = fullestLevelWithin(prefix, corpusChars, workers, room - others);
    }
  }
  const memoryLimited = Object.keys(fullest).filter((prefix) => fullest[prefix] > 0);
  // Each notebook that runs: its estimate (the ETA) and its time limit (stopped and left out past it).
  const timePlans = (costs: WorkCosts | undefined, levelOf: (prefix: string) => number) => {
    for (const prefix of prefixes) {
      if (overMemory.has(prefix) || levelOf(prefix) < 0) continue;
      const estimatedMs = costs
        ? notebookMs(prefix, levelOf(prefix), costs)
        : (docLoadMs[prefix] ?? 0) + (docCostMs[prefix] ?? 0);
      if (!(estimatedMs > 0)) continue;
      decision.plans[prefix] = {
        ...decision.plans[prefix],
        estimatedMs,
        timeLimitMs: notebookTimeLimitMs(estimatedMs),
      };
    }
  };
  if (!pilot || !runnable.some((name) => notebookWorkload[name.slice(0, 2)] !== undefined)) {
    const why =
      retrieval.length > 0
        ? "every notebook that runs retrieval queries is over --max-memory"
        : "none of these notebooks runs retrieval queries";
    say(`budget ${budgetMinutes} min: ${why}; no query sample to choose.`);
    docNotes();
    timePlans(undefined, () => 0);
    return decision;
  }
  const spentMs = performance.now() - started;
  // levels reading a document sample (06's and 07's least work): a pass over the corpus, then the sample read again
  const sampleCosts = {
    corpusChars,
    sampleLoadMs: (share: number) => kernelStartMs + outlineOf(corpus).readMs * (1 + share),
  };
  const sampleOf = (n: number) => (n >= pilot.population ? "all" : n);
  const parallel = Math.max(1, Math.min(jobs, runnable.length));
  const loadsMs =
    runnable
      .map((name) => name.slice(0, 2))
      .reduce((sum, prefix) => sum + (docLoadMs[prefix] ?? pilot.loadMs) + (docCostMs[prefix] ?? 0), 0) /
    parallelThroughput(parallel);
  const full = chooseReportBudget({
    budgetMinutes,
    notebooks: runnable,
    jobs,
    model: pilot.model,
    spentMs: spentMs + loadsMs,
    spentOn: "pilots, and kernel loads and sweep setups set aside",
    population: pilot.population,
  });
  if (full.fits && memoryLimited.length === 0) {
    say(`${full.line} (${pilotLine}; kernel load and sweep setup ~${(pilot.loadMs / 1000).toFixed(0)} s each)`);
    decision.parameters.querySample = sampleOf(full.queries);
    docNotes();
    timePlans(
      {
        splitMs: pilot.model.fixedMs,
        queryMs: pilot.model.perQueryMs,
        loadMs: pilot.loadMs,
        queries: Math.min(full.queries, pilot.population),
        fixedMs: docCostMs,
        loadMsOf: docLoadMs,
        ...sampleCosts,
      },
      () => 0,
    );
    return decision;
  }
  // Even the fewest queries do not fit the full work: reduce the work per notebook, planned at a query sample
  // of `plannedQueries` (a hit rate's 95% CI within about ±5 points), then the query sample that fits that work.
  const plannedQueries = Math.min(pilot.population, plannedQueryCount);
  const costs: WorkCosts = {
    splitMs: pilot.model.fixedMs,
    queryMs: pilot.model.perQueryMs,
    loadMs: pilot.loadMs,
    queries: plannedQueries,
    fixedMs: docCostMs,
    loadMsOf: docLoadMs,
    ...sampleCosts,
  };
  const plan = chooseNotebookWork({
    budgetMs: budgetMinutes * 60_000 - spentMs,
    prefixes,
    jobs,
    costs,
    excluded: memoryChoice.overLimit,
    fullest,
  });
  say(
    `${workLine(plan, budgetMinutes, jobs, memoryChoice.overLimit)} (${pilotLine}; ${(pilot.model.fixedMs / 1000).toFixed(1)} s per ` +
      `split, ${(pilot.loadMs / 1000).toFixed(0)} s per kernel load and sweep setup, ${(spentMs / 1000).toFixed(0)} s of pilots)`,
  );
  if (!plan.fits) {
    throw new SeamlabError(
      `--budget ${budgetMinutes}: too small for this corpus (${thousands(corpusChars)} characters): ` +
        `even the least work of notebook ${plan.notebooks[0]?.prefix} needs about ` +
        `${minutes(plan.notebooks[0]?.leastMs ?? 0)}, the run about ${minutes(plan.estimatedMs + spentMs)} with ` +
        `${minutes(spentMs)} of pilots (${pilotLine}). Raise --budget or run fewer notebooks (--only).`,
    );
  }
  const running = plan.notebooks.filter((n) => n.level >= 0);
  const work = running.map((n) => notebookLevels[n.prefix]?.[n.level]).filter((w) => w !== undefined);
  const runningParallel = Math.max(1, Math.min(jobs, running.length));
  const fixedRest = running.reduce(
    (sum, n) => sum + (docLoadMs[n.prefix] ?? pilot.loadMs) + (docCostMs[n.prefix] ?? 0),
    0,
  );
  if (work.length === 0) {
    say(`budget ${budgetMinutes} min: no retrieval notebook runs, so no query sample is chosen.`);
  }
  const chosen = chooseQueryBudget({
    budgetMs: budgetMinutes * 60_000,
    spentMs: spentMs + fixedRest / parallelThroughput(runningParallel),
    spentOn: "pilots, and kernel loads, sweep setups and 01-02's cells set aside",
    splits: work.reduce((sum, w) => sum + w.splits, 0),
    configs: Math.max(
      1,
      work.reduce((sum, w) => sum + w.configs, 0),
    ),
    parallel: runningParallel,
    model: pilot.model,
    population: pilot.population,
    minQueries: Math.min(100, plannedQueries),
  });
  const queryCount = Math.max(plannedQueries, chosen.queries);
  if (work.length > 0)
    say(
      queryCount > chosen.queries
        ? `budget ${budgetMinutes} min: the reduced work was planned at ${thousands(queryCount)} queries; ` +
            `they run.`
        : chosen.line,
    );
  decision.parameters.querySample = sampleOf(queryCount);
  for (const n of plan.notebooks) {
    const levels = notebookLevels[n.prefix];
    const overLimit = overMemory.has(n.prefix);
    const note = overLimit
      ? memoryNote(n.prefix)
      : docPrefixes.includes(n.prefix)
        ? docSampleNote
        : workNote(n, {
            budgetMinutes,
            corpusChars,
            maxBytes,
            memoryLimited: n.level >= 0 && n.level === fullest[n.prefix] && fullest[n.prefix] > 0,
          });
    if (n.level < 0) decision.plans[n.prefix] = { skipAll: true, note };
    else if (levels && n.level > 0)
      decision.plans[n.prefix] = { parameters: levels[n.level].parameters, skip: levels[n.level].skip, note };
    else if (note) decision.plans[n.prefix] = { note };
  }
  const levelOf = new Map(plan.notebooks.map((n) => [n.prefix, n.level]));
  timePlans({ ...costs, queries: Math.min(queryCount, pilot.population) }, (prefix) => levelOf.get(prefix) ?? -1);
  return decision;
}

/** Shared by `seamlab report` (corpus required) and `npm run report` (the notebooks' own defaults). */
/**
 * The parameters `--corpus` injects: the corpus, and empty extra corpora, because notebook 03's prose-corpus
 * section (Moby-Dick by default) and 01's library table on the markdown default corpus (fastify-docs) belong to
 * the default report only: a report on your corpus measures your corpus.
 */
export function corpusParameters(corpus: string): Record<string, string> {
  return { corpus, proseCorpus: "", markdownCorpus: "" };
}

export async function runReport(argv: string[], { corpusRequired }: { corpusRequired: boolean }): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: "string" },
      queries: { type: "string" },
      "query-sample": { type: "string" },
      budget: { type: "string" },
      "max-memory": { type: "string" },
      out: { type: "string" },
      only: { type: "string" },
      timeout: { type: "string" },
      jobs: { type: "string" },
      "no-execute": { type: "boolean" },
      force: { type: "boolean" },
      screenshots: { type: "boolean" },
      notebooks: { type: "string" },
      ...reportSettingFlags,
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  // Every flag is checked before anything runs: numbers first, then --only and --out, then the inputs.
  const timeoutFlag =
    values.timeout === undefined
      ? undefined
      : intFlag(values, "timeout", defaultCellTimeoutSeconds, { min: 1, max: 86_400, unit: "seconds" });
  const jobs = intFlag(values, "jobs", 2, { min: 1, max: LIMITS.parallel, unit: "kernels" });
  const only = values.only ? commaList(values.only) : undefined;
  if (values["query-sample"] !== undefined) {
    parseQuerySample(values["query-sample"]); // a bad value stops here, before any kernel starts
  }
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
  const notebooksDir = values.notebooks
    ? resolve(process.cwd(), values.notebooks)
    : resolve(projectRoot(), "notebooks");
  const force = values.force === true;
  const notebookPaths = listNotebooks(notebooksDir, only);
  checkOutDir(outDir, reportFileNames(notebookPaths), { force });
  const settings = reportSettingsFrom(values);
  if (Object.keys(settings).length > 0) {
    refuseTogether(
      values,
      "budget",
      Object.keys(reportSettingFlags).find((flag) => (values as Record<string, unknown>)[flag] !== undefined) ?? "",
      "--budget plans each notebook's own grid; give the settings without --budget, or --budget alone.",
    );
    checkSettingsReachNotebooks(
      settings,
      new Map(notebookPaths.map((path) => [basename(path, ".ipynb"), declaredParameters(readNotebook(path))])),
    );
    process.stderr.write(`seamlab report: settings ${describeSettings(settings)}\n`);
  }
  const parameters: Record<string, unknown> = {};
  const hide: [string, string][] = [];
  let corpus: { parameter: string; label: string } | undefined;
  if (values.corpus !== undefined || corpusRequired) {
    corpus = corpusFromSpec(stringFlag(values, "corpus"));
    Object.assign(parameters, corpusParameters(corpus.parameter));
    if (corpus.parameter !== corpus.label) hide.push([corpus.parameter, corpus.label]);
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
  let runJobs = jobs;
  let notebookPlans: Record<string, NotebookBudgetPlan> | undefined;
  // A corpus over 200 M characters (bytes, counted from the listing) is swept in each kernel's own thread, with or
  // without --budget: a worker thread would hold its own copy of it.
  let kernelWorkers: number | undefined =
    corpus && process.env.SEAMLAB_WORKERS === undefined && corpusBytes(corpus.parameter) > inThreadChars
      ? 0
      : undefined;
  if (budgetMinutes !== undefined) {
    const names = listNotebooks(notebooksDir, only).map((path) => basename(path));
    const decision = await chooseBudget(budgetMinutes, names, jobs, parameters, maxBytes ?? totalmem() / 2);
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
  // Ctrl-C reaches the kernels too (same process group) and tslab treats it as "interrupt", not "exit":
  // stop them ourselves. The previous report stays as it was (nothing is published until the end).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAllKernels();
      process.stderr.write(`seamlab report: stopped by ${signal}; the previous report was left as it was.\n`);
      process.exit(130);
    });
  }
  lockOutDir(outDir); // held until this process exits: a second report into the same folder is refused meanwhile
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
