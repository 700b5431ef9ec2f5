// `seamlab report`: execute notebooks, render each to a page plus an index, and publish the report (publish.ts) only
// when every notebook succeeded.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { SeamlabError } from "../core/errors";
import { gitCommitOrNull, seamlabVersion } from "../core/project";
import { etaFromItemTimes, formatItemsEta } from "../experiment/progress";
import { renderIndex } from "./index-page";
import {
  checkOutDir,
  cleanStale,
  clearFailedPages,
  newRunInfo,
  publishReport,
  readPublished,
  writeFailedPages,
  type PageEntry,
} from "./publish";
import { declaredSettings, joinSource, parametersCell, readNotebook, serializeNotebook } from "./nbformat";
import type { Notebook } from "./nbformat";
import { renderNotebook, type RenderedNotebook } from "./render";
import { CHOSEN_FILE } from "./recommendation";
import { describeFailure, runNotebook } from "./run";
import { startKernelSources, type PendingKernelSources } from "../build/kernels/copy";
import { etaFromPlan, longestFirst, previousDuration, workersPerKernel } from "./schedule";
import { needsNodeTypes } from "./kernel-node-types";
import { applyBudgetPlan, type NotebookBudgetPlan } from "./budget-notebook";
import { minutes, overrunNote } from "./budget-work";

export interface ReportOptions {
  root: string;
  notebooksDir: string;
  outDir: string;
  /** Injected after each notebook's `parameters` cell (e.g. `{ corpus: "/abs/path" }`). */
  parameters?: Record<string, unknown>;
  /** The user's report settings (`--sizes`, `--k`, …, as parameter names), injected where a notebook declares them. */
  settings?: Record<string, unknown>;
  /** Keep notebooks whose file name starts with one of these (e.g. ["03"]). */
  only?: string[];
  cellTimeoutMs?: number;
  /** Notebooks executed at once, each in its own kernel (default 1). */
  jobs?: number;
  noExecute?: boolean;
  /** Write into a non-empty folder that is not a seamlab report (its files are left alone). */
  force?: boolean;
  /** How pages name the corpus (never an absolute path); defaults to the injected corpus parameter. */
  corpusLabel?: string;
  /** Strings replaced everywhere in executed notebooks and pages (an absolute corpus path by its label). */
  hide?: [string, string][];
  log?: (line: string) => void;
  /** `--budget`'s plan per notebook, by file-name prefix ("03"). */
  notebookPlans?: Readonly<Record<string, NotebookBudgetPlan>>;
  /** The `--budget` minutes the plans were made for (named on the page of a notebook stopped at its time limit). */
  budgetMinutes?: number;
  /** Worker threads per kernel, over the default share of the cores (0: sweeps run in the kernel's own thread). */
  kernelWorkers?: number;
}

export interface ReportResult {
  ok: boolean;
  pages: RenderedNotebook[];
  /** One line per failed notebook or render problem, naming notebook and cell. */
  failures: string[];
  /** Notebooks stopped at their `--budget` time limit and left out of the report. */
  stopped: string[];
}

/** The file names a report of these notebooks writes (checked against `--out` before anything runs). */
export function reportFileNames(paths: readonly string[]): string[] {
  const pages = paths.flatMap((path) => [`${basename(path, ".ipynb")}.html`, `${basename(path, ".ipynb")}.ipynb`]);
  return ["index.html", CHOSEN_FILE, ...pages];
}

/** Replaces each `from` by its `to` in every string inside `value` (a notebook), returning a copy. */
export function hideStrings<T>(value: T, hide: readonly [string, string][]): T {
  if (hide.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return hide.reduce((text, [from, to]) => (from ? text.split(from).join(to) : text), v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([key, inner]) => [key, walk(inner)]));
    return v;
  };
  return walk(value) as T;
}

export function listNotebooks(dir: string, only?: string[]): string[] {
  if (!existsSync(dir)) throw new SeamlabError(`notebook folder ${dir} does not exist (pass --notebooks DIR).`);
  if (!statSync(dir).isDirectory()) throw new SeamlabError(`--notebooks ${dir} is a file; give the notebooks' folder.`);
  const all = readdirSync(dir)
    .filter((name) => name.endsWith(".ipynb") && !name.startsWith("."))
    .sort();
  const picked = only && only.length > 0 ? all.filter((name) => only.some((prefix) => name.startsWith(prefix))) : all;
  if (only && only.length > 0 && picked.length === 0)
    throw new SeamlabError(
      `--only ${only.join(",")} matches no notebook in ${dir} (have: ${all.join(", ") || "none"}).`,
    );
  return picked.map((name) => join(dir, name));
}

/** The corpus a notebook's parameters cell names (`const corpus = "..."`), for the index page. */
export function corpusFromParameters(notebook: Notebook): string | undefined {
  const source = joinSource(parametersCell(notebook)?.source);
  return /\b(?:const|let|var)\s+corpus\b[^=]*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/.exec(source)?.[1].slice(1, -1);
}

/** The kernels' copy of src/, built while they start, or undefined; `ready` logs a failure and never rejects. */
function kernelSourcesForRun(root: string, log: (line: string) => void): PendingKernelSources | undefined {
  if (process.env.SEAMLAB_REPORT_SOURCES === "tslab") return undefined;
  const failed = (error: Error) =>
    log(`could not compile src/ for the kernels (${error.message}); the kernels compile it themselves`);
  let pending: PendingKernelSources;
  try {
    pending = startKernelSources(root);
  } catch (error) {
    failed(error as Error);
    return undefined;
  }
  const ready = pending.ready.then(
    (sources) => {
      const seconds = (sources.ms / 1000).toFixed(1);
      if (sources.dir) log(`${sources.reused ? "reused" : "compiled"} src/ for the kernels in ${seconds} s`);
      else
        log(
          `src/ has ${sources.diagnostics.length} error(s) under tslab's TypeScript (first: ${sources.diagnostics[0]}); ` +
            `the kernels compile it themselves and report them in the notebooks`,
        );
      return sources;
    },
    (error: Error) => {
      failed(error);
      return { reused: false, diagnostics: [], ms: 0 };
    },
  );
  return { ...pending, ready };
}

export async function buildReport(options: ReportOptions): Promise<ReportResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const paths = listNotebooks(options.notebooksDir, options.only);
  checkOutDir(options.outDir, reportFileNames(paths), { force: options.force });
  const stale = cleanStale(options.outDir, log);
  if (stale > 0) log(`removed ${stale} leftover(s) of an interrupted report in ${options.outDir}`);
  const hide = options.hide ?? [];
  const files = new Map<string, string>();
  const pages: RenderedNotebook[] = [];
  const failures: string[] = [];
  const injectedCorpus = typeof options.parameters?.corpus === "string" ? options.parameters.corpus : undefined;
  // Without an injected corpus each notebook reads its own default (prose or markdown): name them all.
  const corpora: string[] = [];
  const executed = new Array<Notebook>(paths.length);
  // Each page is rendered as soon as its notebook is done, while the other kernels still run. A failed render is
  // kept (not a rejected promise while other kernels run) and thrown where it is read.
  type Rendering = { page: RenderedNotebook } | { error: unknown };
  const rendered = new Array<Promise<Rendering>>(paths.length);
  const renderSoon = (notebook: Notebook, name: string): Promise<Rendering> =>
    new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => renderNotebook(notebook, name))
      .then(
        (page) => ({ page }),
        (error: unknown) => ({ error }),
      );
  const failedRuns = new Array<string | undefined>(paths.length);
  let next = 0;
  // Kernels and their sweeps' worker threads share the cores (a SEAMLAB_WORKERS the user exported wins).
  const jobs = Math.max(1, Math.min(options.jobs ?? 1, paths.length));
  const kernelEnv: Record<string, string> = {
    SEAMLAB_WORKERS: process.env.SEAMLAB_WORKERS ?? String(options.kernelWorkers ?? workersPerKernel(jobs)),
  };
  // The ETA counts what is left of `--budget`'s estimates when it made a plan (the mean of the first finished
  // notebooks said "ETA 28m" after 01 at 1 GB, where 01 is short and 03 long), else this run's and the previous
  // report's times. Notebooks start longest first, so no long one starts last and leaves the other kernels idle.
  const finishedMs: number[] = [];
  const finished = new Set<number>();
  const previousMs = paths.map((path) => previousDuration(join(options.outDir, `${basename(path, ".ipynb")}.ipynb`)));
  const plannedMs = paths.map((path) => options.notebookPlans?.[basename(path).slice(0, 2)]?.estimatedMs);
  const runningSince = new Map<number, number>();
  const stopped: string[] = [];
  const order = longestFirst(paths, previousMs);
  const compiledSources = options.noExecute ? undefined : kernelSourcesForRun(options.root, log);
  const worker = async () => {
    while (next < order.length) {
      const at = order[next++];
      const name = basename(paths[at], ".ipynb");
      const plan = options.notebookPlans?.[name.slice(0, 2)];
      const source = plan ? applyBudgetPlan(readNotebook(paths[at]), plan) : readNotebook(paths[at]);
      if (options.noExecute || plan?.skipAll) {
        if (plan?.skipAll) log(`  ${name}: not run under the budget (the page says why)`);
        executed[at] = hideStrings(source, hide);
        finished.add(at);
        rendered[at] = renderSoon(executed[at], name);
        continue;
      }
      // A notebook that names nothing of Node's runs without @types/node: the build knows those names within a second.
      const nodeGlobals = await compiledSources?.nodeGlobals;
      const code = source.cells.filter((cell) => cell.cell_type === "code").map((cell) => joinSource(cell.source));
      const hideNodeTypes = nodeGlobals !== undefined && !needsNodeTypes(code, new Set(nodeGlobals));
      log(`running ${name}.ipynb`);
      runningSince.set(at, performance.now());
      const result = await runNotebook(source, {
        root: options.root,
        parameters: {
          ...options.parameters,
          ...declaredSettings(source, options.settings ?? {}),
          ...plan?.parameters,
        },
        cellTimeoutMs: options.cellTimeoutMs,
        timeLimitMs: plan?.timeLimitMs,
        env: kernelEnv,
        compiledSources,
        hideNodeTypes,
      });
      runningSince.delete(at);
      executed[at] = hideStrings(result.notebook, hide);
      finishedMs.push(result.durationMs);
      finished.add(at);
      const now = performance.now();
      const waitingMs = previousMs.filter((_, i) => !finished.has(i));
      const eta =
        etaFromPlan(paths.length, plannedMs, finished, runningSince, now, jobs) ??
        etaFromItemTimes(finishedMs, waitingMs, jobs);
      const overran = result.overran === true && plan?.timeLimitMs !== undefined;
      log(
        `  ${name}: ${overran ? "STOPPED at its time limit" : result.ok ? "ok" : "FAILED"} in ` +
          `${(result.durationMs / 1000).toFixed(1)} s (kernel start ${(result.kernelStartMs / 1000).toFixed(1)} s` +
          `${result.peakRssBytes ? `, kernel peak RSS ${(result.peakRssBytes / 2 ** 30).toFixed(2)} GB` : ""}); ` +
          formatItemsEta(finished.size, paths.length, now - started, eta, "notebooks"),
      );
      if (overran) {
        // Left out, not failed: the report is published with the other notebooks.
        const note = overrunNote({
          prefix: name.slice(0, 2),
          plannedMs: plan.estimatedMs ?? plan.timeLimitMs!,
          limitMs: plan.timeLimitMs!,
          budgetMinutes: options.budgetMinutes ?? 0,
        });
        const page = applyBudgetPlan(readNotebook(paths[at]), { skipAll: true, note });
        page.metadata = { ...page.metadata, seamlab: { ...(page.metadata.seamlab as object), budget: "stopped" } };
        executed[at] = hideStrings(page, hide);
        stopped.push(name);
        log(`  ${name}: left out of the report (its page says it was stopped at ${minutes(plan.timeLimitMs!)})`);
      } else if (result.failed) failedRuns[at] = hideStrings(describeFailure(paths[at], result.failed), hide);
      rendered[at] = renderSoon(executed[at], name);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  for (let at = 0; at < paths.length; at++) {
    const name = basename(paths[at], ".ipynb");
    const own = options.corpusLabel ?? injectedCorpus ?? corpusFromParameters(executed[at]);
    if (own !== undefined && !corpora.includes(own)) corpora.push(own);
    if (failedRuns[at]) failures.push(failedRuns[at]!);
    const rendering = await rendered[at];
    if ("error" in rendering) throw rendering.error;
    const page = rendering.page;
    if (options.noExecute && page.status === "error") failures.push(page.failure ?? `${name}.ipynb: a cell failed`);
    for (const problem of page.problems) failures.push(`${name}.ipynb: ${problem}`);
    pages.push(page);
    files.set(`${name}.ipynb`, serializeNotebook(executed[at]));
    files.set(`${name}.html`, page.html);
  }
  const run = newRunInfo(corpora.length > 0 ? corpora.join(", ") : "(as set in each notebook's parameters cell)");
  const entries: PageEntry[] = pages.map(({ html: _h, problems: _p, ...page }) => ({ ...page, run }));
  // --only: the pages of notebooks not run this time stay as the published report had them (checked by hash).
  const published = options.only && options.only.length > 0 ? readPublished(options.outDir) : undefined;
  if (published) {
    for (const entry of published.pages) {
      if (entries.some((e) => e.name === entry.name)) continue;
      const kept = [`${entry.name}.html`, `${entry.name}.ipynb`];
      if (!kept.every((file) => existsSync(join(options.outDir, file)))) continue;
      for (const file of kept) files.set(file, readFileSync(join(options.outDir, file), "utf8"));
      entries.push(entry);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  // The recommendation the index leads with, and its exported config beside the index.
  const leading = entries.find((entry) => entry.recommendation !== undefined);
  if (leading?.recommendation?.exported)
    files.set(CHOSEN_FILE, JSON.stringify(leading.recommendation.exported, null, 2) + "\n");
  files.set(
    "index.html",
    renderIndex(entries, {
      corpus: run.corpus,
      generatedAt: run.generatedAt,
      version: seamlabVersion(options.root),
      commit: gitCommitOrNull(options.root) ?? "unknown (not a git checkout)",
      totalMs: performance.now() - started,
      runId: run.id,
    }),
  );
  if (failures.length > 0) {
    const failedPages = writeFailedPages(options.outDir, files);
    log(`report NOT published: the previous report in ${options.outDir} was left as it was.`);
    log(`failed run's pages: ${join(options.outDir, ".failed")}/ (${failedPages.length} files)`);
    return { ok: false, pages, failures, stopped };
  }
  const kept = publishReport(options.outDir, files, run, entries);
  for (const path of kept) log(`a file you changed in the previous report was set aside with it, not deleted: ${path}`);
  clearFailedPages(options.outDir);
  log(`report written to ${options.outDir}/index.html`);
  return { ok: true, pages, failures, stopped };
}
