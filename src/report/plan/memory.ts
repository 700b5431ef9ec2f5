// How many notebooks run at once under `--max-memory`, the fullest work each may do, and the least work of the
// retrieval notebooks kept out of 01-02's share of the budget.
import { parallelThroughput } from "../../experiment/budget";
import { workersPerKernel } from "../schedule";
import { inThreadChars } from "../budget-work";
import type { Declared } from "./declared-work";
import { notebookMs, noteGb, noteOpening, reservedLeastMs } from "./work-levels";
import type { PlanContext } from "./types";

/** Kernel memory: a tslab kernel with src/ loaded, before any corpus (measured on this machine, about 0.3 GB). */
export const kernelBaseBytes = 300 * 1024 * 1024;

/**
 * One notebook's kernel at its least work (or at `level`): `kernelBaseBytes` + its declared fixed bytes + its bytes
 * per character (and the level's extra) × the characters it loads × copies (one more per worker thread of a sweeping
 * notebook below `inThreadChars`). A notebook that declares none counts as the largest declared.
 */
export function kernelBytes(declared: Declared, prefix: string, chars: number, workers = 0, level?: number): number {
  const own = declared[prefix];
  const perChar = own?.kernelBytesPerChar ?? Math.max(0, ...Object.values(declared).map((w) => w.kernelBytesPerChar));
  const fixed = own?.kernelFixedBytes ?? 0;
  const levels = own && own.levels.length > 0 ? own.levels : undefined;
  const work = levels?.[level ?? levels.length - 1];
  if (work?.documentChars !== undefined)
    return Math.round(kernelBaseBytes + fixed + perChar * Math.min(chars, work.documentChars));
  // 01 and 02 (no levels) measure their sample in the kernel's own thread.
  const sweeps = levels !== undefined;
  const copies = chars > inThreadChars || !sweeps ? 1 : 1 + workers;
  const extra = work?.extraBytesPerChar ?? 0;
  return Math.round(kernelBaseBytes + fixed + (perChar + extra) * chars * copies);
}

/** The fullest level whose kernel estimate fits `roomBytes`; the least work when none does. */
export function fullestLevelWithin(
  declared: Declared,
  prefix: string,
  chars: number,
  workers: number,
  roomBytes: number,
): number {
  const levels = declared[prefix]?.levels ?? [];
  if (levels.length === 0) return 0;
  for (let level = 0; level < levels.length; level++)
    if (kernelBytes(declared, prefix, chars, workers, level) <= roomBytes) return level;
  return levels.length - 1;
}

/**
 * Notebooks at once under `--max-memory`: the most kernels whose largest estimates, with `reportBytes`, stay under
 * `maxBytes` (at least 1). A kernel alone over that room is named in `overLimit`, to be left out: no tolerance for
 * one "just over" (one admitted at up to 1.25x once took the tree past the limit).
 */
export function chooseJobs(options: {
  requested: number;
  maxBytes: number;
  reportBytes: number;
  kernels: Readonly<Record<string, number>>;
}): { jobs: number; overLimit: string[]; line: string } {
  const room = options.maxBytes - options.reportBytes;
  const overLimit = Object.keys(options.kernels)
    .filter((prefix) => options.kernels[prefix] > room)
    .sort();
  const sizes = Object.entries(options.kernels)
    .filter(([prefix]) => !overLimit.includes(prefix))
    .map(([, bytes]) => bytes)
    .sort((a, b) => b - a);
  let jobs = 1;
  while (
    jobs < Math.min(options.requested, sizes.length) &&
    sizes.slice(0, jobs + 1).reduce((a, b) => a + b, 0) <= room
  )
    jobs++;
  const gb = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GB`;
  const each = Object.keys(options.kernels)
    .sort()
    .map((prefix) => `${prefix} ${gb(options.kernels[prefix])}`)
    .join(", ");
  const line =
    `max memory ${gb(options.maxBytes)}: ${jobs} notebook${jobs === 1 ? "" : "s"} at a time` +
    `${jobs < options.requested ? ` (of --jobs ${options.requested})` : ""}` +
    `${overLimit.length > 0 ? `; not run, each kernel alone over the ${gb(room)} left: ${overLimit.join(", ")}` : ""} ` +
    `(kernels estimated from the corpus size: ${each}; this process ${gb(options.reportBytes)}).`;
  return { jobs, overLimit, line };
}

/** The query sample the reduced work is planned at: a hit rate's 95% CI within about ±5 points. */
export const plannedQueryCount = 400;

/** Worker threads per kernel with `jobs` kernels at once (`SEAMLAB_WORKERS` wins when set). */
export function kernelWorkers(ctx: PlanContext, jobs: number): number {
  return Number(ctx.input.workersEnv ?? (ctx.inThread ? 0 : workersPerKernel(jobs)));
}

/** The most notebooks at once whose kernels fit, each count estimated with its own worker threads per kernel. */
export function memoryJobs(
  ctx: PlanContext,
  charsOf: (prefix: string) => number,
  from = ctx.input.requestedJobs,
): ReturnType<typeof chooseJobs> {
  for (let at = from; ; at--) {
    const workers = kernelWorkers(ctx, at);
    const kernels = Object.fromEntries(
      ctx.prefixes.map((p) => [p, kernelBytes(ctx.input.declared, p, charsOf(p), workers)]),
    );
    const choice = chooseJobs({ requested: at, maxBytes: ctx.input.maxBytes, reportBytes: ctx.probes.rss(), kernels });
    if (choice.jobs === at || at <= 1) return choice;
  }
}

/** A document sample's load: a kernel's start, a pass over the corpus, the sample read again. */
export function sampleCosts(ctx: PlanContext): { corpusChars: number; sampleLoadMs: (share: number) => number } {
  return {
    corpusChars: ctx.corpusChars,
    sampleLoadMs: (share) => ctx.input.kernelStartMs + ctx.outlineOf(ctx.corpus).readMs * (1 + share),
  };
}

/**
 * The retrieval notebooks' least work (at 400 queries) kept out of 01-02's share of the budget: in priority order,
 * each whose kernel fits --max-memory and whose least work fits beside those before it, 01-02's loads (`docLoadsMs`)
 * and their floor sample's cells (`docFloorMs`). Reserving for every one took 01-02 down to 20 documents at 1 GB.
 */
export function reservedFor(ctx: PlanContext, parallel: number, docLoadsMs: number, docFloorMs: number): number {
  const { pilot } = ctx;
  if (!pilot) return 0;
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
  const { declared } = ctx.input;
  const rank = (p: string) => declared[p].priority;
  const fitting = [...ctx.retrieval]
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
    .filter((p) => kernelBytes(declared, p, ctx.corpusChars, 0) <= ctx.input.maxBytes - ctx.probes.rss());
  // 01-02's own loads count too: the share is of their sampled cells only.
  return (
    reservedLeastMs(
      fitting.map((p) => notebookMs(declared, p, declared[p].levels.length - 1, least) / throughput),
      leftMs,
    ) +
    docLoadsMs / throughput
  );
}

/** The fullest work each notebook may do within --max-memory, its kernel beside the `jobs - 1` largest others. */
export function fullestLevels(ctx: PlanContext, runnable: readonly string[], jobs: number): Record<string, number> {
  const fullest: Record<string, number> = {};
  const workers = kernelWorkers(ctx, jobs);
  const room = ctx.input.maxBytes - ctx.probes.rss();
  const least = (prefix: string) =>
    kernelBytes(ctx.input.declared, prefix, ctx.docPrefixes.includes(prefix) ? 0 : ctx.corpusChars, workers);
  for (const name of runnable) {
    const prefix = name.slice(0, 2);
    const others = runnable
      .map((other) => other.slice(0, 2))
      .filter((other) => other !== prefix)
      .map(least)
      .sort((a, b) => b - a)
      .slice(0, jobs - 1)
      .reduce((a, b) => a + b, 0);
    fullest[prefix] = fullestLevelWithin(ctx.input.declared, prefix, ctx.corpusChars, workers, room - others);
  }
  return fullest;
}

/** The page note of a notebook whose kernel alone is over --max-memory (not run). */
export function memoryNote(ctx: Pick<PlanContext, "input" | "corpusChars">, prefix: string): string {
  const bytes = kernelBytes(ctx.input.declared, prefix, ctx.corpusChars);
  return (
    `${noteOpening(ctx.corpusChars, ctx.input.budgetMinutes)}, this notebook was **not run**: its kernel would hold ` +
    `about ${noteGb(bytes)}, more than \`--max-memory\` (${noteGb(ctx.input.maxBytes)}) leaves. Raise ` +
    `\`--max-memory\` on a machine that has it.`
  );
}
