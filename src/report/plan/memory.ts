// How many notebooks run at once under `--max-memory`, the fullest work each may do, and the least work of the
// retrieval notebooks kept out of 01-02's share of the budget. Pure over the plan's context.
import { parallelThroughput } from "../../experiment/budget";
import { workersPerKernel } from "../build";
import {
  chooseJobs,
  fullestLevelWithin,
  kernelBytes,
  notebookLevels,
  notebookMs,
  notebookPriority,
  reservedLeastMs,
  workNote,
  type JobsChoice,
} from "../budget-work";
import type { PlanContext } from "./types";

/** The query sample the reduced work is planned at: a hit rate's 95% CI within about ±5 points. */
export const plannedQueryCount = 400;

/** Worker threads per kernel with `jobs` kernels at once (`SEAMLAB_WORKERS` wins when set). */
export function kernelWorkers(ctx: PlanContext, jobs: number): number {
  return Number(ctx.input.workersEnv ?? (ctx.inThread ? 0 : workersPerKernel(jobs)));
}

/**
 * The most notebooks at once whose kernels fit: fewer at once means more worker threads each (and, below 200 M
 * characters, a copy of the corpus per thread), so each count is estimated with its own threads.
 */
export function memoryJobs(
  ctx: PlanContext,
  charsOf: (prefix: string) => number,
  from = ctx.input.requestedJobs,
): JobsChoice {
  for (let at = from; ; at--) {
    const workers = kernelWorkers(ctx, at);
    const kernels = Object.fromEntries(ctx.prefixes.map((p) => [p, kernelBytes(p, charsOf(p), workers)]));
    const choice = chooseJobs({ requested: at, maxBytes: ctx.input.maxBytes, reportBytes: ctx.probes.rss(), kernels });
    if (choice.jobs === at || at <= 1) return choice;
  }
}

/** The plan's costs of a document sample's load: a kernel's start, a pass over the corpus, the sample read again. */
export function sampleCosts(ctx: PlanContext): { corpusChars: number; sampleLoadMs: (share: number) => number } {
  return {
    corpusChars: ctx.corpusChars,
    sampleLoadMs: (share) => ctx.input.kernelStartMs + ctx.outlineOf(ctx.corpus).readMs * (1 + share),
  };
}

/**
 * The least work of the retrieval notebooks, as the plan counts it (400 queries), kept out of 01-02's share of the
 * budget: in priority order, each whose kernel fits --max-memory and whose least work still fits beside those before
 * it and 01-02's loads (`docLoadsMs`). One that does not fit is left out by the plan anyway: reserving for every one
 * took 01-02 down to 20 documents at 1 GB. `docFloorMs` is the cells of 01-02's floor sample.
 */
export function reservedFor(ctx: PlanContext, parallel: number, docLoadsMs: number, docFloorMs: number): number {
  const { pilot } = ctx;
  if (!pilot) return 0;
  // what is left beside 01-02's loads and the cells of a floor sample of each
  const throughput = parallelThroughput(parallel);
  const leftMs =
    ctx.input.budgetMinutes * 60_000 - (ctx.probes.now() - ctx.started) - (docLoadsMs + docFloorMs) / throughput;
  const least = {
    splitMs: pilot.model.fixedMs,
    queryMs: pilot.model.perQueryMs,
    loadMs: pilot.loadMs,
    queries: Math.min(pilot.population, plannedQueryCount),
    ...sampleCosts(ctx),
  };
  const fitting = notebookPriority
    .filter((p) => ctx.retrieval.includes(p))
    .filter((p) => kernelBytes(p, ctx.corpusChars, 0) <= ctx.input.maxBytes - ctx.probes.rss());
  // 01-02's own loads count too: the share is of their sampled cells only (without them, the last notebook
  // reserved for no longer fitted beside 01-02 in the plan)
  return (
    reservedLeastMs(
      fitting.map((p) => notebookMs(p, notebookLevels[p].length - 1, least) / throughput),
      leftMs,
    ) +
    docLoadsMs / throughput
  );
}

/**
 * The fullest work each notebook may do within --max-memory: its kernel beside the `jobs - 1` largest others at
 * their least (03's dense and query-source sweeps, 05's retriever comparison hold more than their least work).
 */
export function fullestLevels(ctx: PlanContext, runnable: readonly string[], jobs: number): Record<string, number> {
  const fullest: Record<string, number> = {};
  const workers = kernelWorkers(ctx, jobs);
  const room = ctx.input.maxBytes - ctx.probes.rss();
  const least = (prefix: string) =>
    kernelBytes(prefix, ctx.docPrefixes.includes(prefix) ? 0 : ctx.corpusChars, workers);
  for (const name of runnable) {
    const prefix = name.slice(0, 2);
    const others = runnable
      .map((other) => other.slice(0, 2))
      .filter((other) => other !== prefix)
      .map(least)
      .sort((a, b) => b - a)
      .slice(0, jobs - 1)
      .reduce((a, b) => a + b, 0);
    fullest[prefix] = fullestLevelWithin(prefix, ctx.corpusChars, workers, room - others);
  }
  return fullest;
}

/** The page note of a notebook whose kernel alone is over --max-memory (not run). */
export function memoryNote(ctx: PlanContext, prefix: string): string {
  return workNote(
    { prefix, level: -1, estimatedMs: 0, fullMs: 0, leastMs: 0 },
    {
      budgetMinutes: ctx.input.budgetMinutes,
      corpusChars: ctx.corpusChars,
      kernelBytes: kernelBytes(prefix, ctx.corpusChars),
      maxBytes: ctx.input.maxBytes,
    },
  );
}
