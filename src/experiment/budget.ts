// `--budget MIN`: the largest query sample whose run fits what is left of MIN minutes after a pilot.
import { SeamlabError } from "../core/errors";
import { thousands } from "../stats/format";

/** A fixed part per splitter config (split, measure, index: no query sample shortens it), and a part per query. */
export interface ConfigCostModel {
  fixedMs: number;
  perQueryMs: number;
}

/**
 * How much slower each of several busy threads runs than one alone: on 2 cores the same grid in two processes took
 * 19.1-19.5 s each against 14.7-15.2 s alone (bench/HISTORY.md, 2026-12-02). Pessimistic on more cores.
 */
export const busyCoresSlowdown = 1.3;

/** What `parallel` at once get done, in units of one alone; `besideOthers`: other work keeps the cores busy. */
export function parallelThroughput(parallel: number, besideOthers = false): number {
  const at = Math.max(1, parallel);
  return at > 1 || besideOthers ? at / busyCoresSlowdown : 1;
}

/** A larger value is a typo, not a wish. */
const maxBudgetMinutes = 7 * 24 * 60;

/** Reads `--budget MIN` (minutes, fractions allowed): a number above 0 and at most a week. */
export function parseBudgetMinutes(value: string | number | undefined, flag = "--budget"): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const minutes = /^(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : NaN;
  if (!(minutes > 0 && minutes <= maxBudgetMinutes))
    throw new SeamlabError(
      `${flag} must be a number of minutes above 0 and at most ${thousands(maxBudgetMinutes)} ` +
        `(a week), e.g. ${flag} 5; got "${text}".`,
    );
  return minutes;
}

/** The cost model from pilot rows' whole times and their queries' times, over `pilotQueries` queries. */
export function costModelFromPilot(timings: readonly { rowMs: number; queryMs: number }[], pilotQueries: number) {
  if (timings.length === 0 || pilotQueries < 1) throw new SeamlabError("the budget pilot measured nothing.");
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const perQueryMs = mean(timings.map((t) => t.queryMs)) / pilotQueries;
  return { fixedMs: mean(timings.map((t) => Math.max(0, t.rowMs - t.queryMs))), perQueryMs };
}

/** A cost model measured on a document sample of `chars` characters. */
export type SampledCost = { chars: number; model: ConfigCostModel };

/**
 * A cost measured on two document samples, extrapolated to `chars` along the line through both, so that what does not
 * grow with the text is counted once; between the larger sample's cost and that scaled in proportion. At 1 GB
 * proportional scaling of a 20 M-character pilot put a split at 115 s CPU where it took about 60 s.
 */
export function extrapolateCost(
  small: { chars: number; ms: number },
  large: { chars: number; ms: number },
  chars: number,
): number {
  const proportional = (large.ms * chars) / Math.max(1, large.chars);
  if (!(large.chars > small.chars) || chars <= large.chars) return proportional;
  const slope = Math.max(0, (large.ms - small.ms) / (large.chars - small.chars));
  return Math.min(proportional, Math.max(large.ms, large.ms + slope * (chars - large.chars)));
}

/** Both parts of a cost model extrapolated to `chars` from two samples. */
export function extrapolateModel(small: SampledCost, large: SampledCost, chars: number): ConfigCostModel {
  const part = (key: keyof ConfigCostModel) =>
    extrapolateCost({ chars: small.chars, ms: small.model[key] }, { chars: large.chars, ms: large.model[key] }, chars);
  return { fixedMs: part("fixedMs"), perQueryMs: part("perQueryMs") };
}

/** A run's size: splitter configs, retrieval configs (each runs every query), and how many run at once. */
type RunShape = { splits: number; configs: number; parallel?: number; besideOthers?: boolean };

export interface BudgetPlan extends RunShape {
  budgetMs: number;
  /** Time already spent (the pilot), taken off the budget. */
  spentMs: number;
  /** What `spentMs` holds, for the line (default "pilot"). */
  spentOn?: string;
  parallel: number;
  model: ConfigCostModel;
  /** Queries there are to draw from. */
  population: number;
  /** The fewest queries worth running; default 100. */
  minQueries?: number;
  /** What to do when even the fewest queries do not fit. */
  advice?: string;
}

export type BudgetChoice = ReturnType<typeof chooseQueryBudget>;

/** Estimated ms of `splits` splitter configs and `configs` retrieval configs over `queries`, `parallel` at once. */
export function estimateRunMs(model: ConfigCostModel, run: RunShape, queries: number): number {
  const serial = run.splits * model.fixedMs + run.configs * model.perQueryMs * queries;
  return Math.round(serial / parallelThroughput(run.parallel ?? 1, run.besideOthers));
}

/** A duration at a precision that never rounds it to nothing ("estimated 0.0 min" for a 2 s run said nothing). */
export function durationText(ms: number): string {
  if (ms >= 6_000) return `${(ms / 60_000).toFixed(ms < 600_000 ? 1 : 0)} min`;
  if (ms >= 1_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms)} ms`;
}

/** Minutes at their own precision: 0.001 stays 0.001 (not "0"), 14 stays 14, 2.345 is 2.35. */
export function budgetMinutesText(minutes: number): string {
  return String(minutes >= 1 ? Number(minutes.toFixed(2)) : Number(minutes.toPrecision(3)));
}

/** The smallest `--budget` (minutes, rounded up to two significant digits) that holds `ms`. */
function budgetHolding(ms: number): string {
  const minutes = ms / 60_000;
  const step = 10 ** (Math.floor(Math.log10(Math.max(minutes, 1e-6))) - 1);
  return budgetMinutesText(Number((Math.ceil(minutes / step - 1e-9) * step).toPrecision(2)));
}

/** The largest query sample whose estimated run fits the budget left after the pilot, and the line saying so. */
export function chooseQueryBudget(plan: BudgetPlan) {
  const { model, configs, population } = plan;
  const parallel = Math.max(1, plan.parallel);
  const left = Math.max(0, plan.budgetMs - plan.spentMs);
  const floor = Math.min(population, Math.max(1, plan.minQueries ?? 100));
  const run = { splits: plan.splits, configs, parallel, besideOthers: plan.besideOthers };
  const fixedMs = estimateRunMs(model, run, 0);
  const perQueryMs = (configs * model.perQueryMs) / parallelThroughput(parallel, plan.besideOthers);
  const fitting = perQueryMs > 0 ? Math.floor((left - fixedMs) / perQueryMs) : population;
  const queries = Math.max(floor, Math.min(population, fitting));
  const estimatedMs = estimateRunMs(model, run, queries);
  // False: even the fewest queries do not fit (+1: the estimate is rounded to whole ms).
  const fits = estimatedMs <= left + 1;
  const budget = `budget ${budgetMinutesText(plan.budgetMs / 60_000)} min`;
  const what =
    queries >= population
      ? `all ${thousands(population)} queries`
      : `${thousands(queries)} of ${thousands(population)} queries`;
  const basis =
    `${thousands(configs)} config${configs === 1 ? "" : "s"}${
      parallel > 1
        ? `, ${parallel} at a time, each ${busyCoresSlowdown}x slower on busy cores`
        : plan.besideOthers
          ? `, beside other work, ${busyCoresSlowdown}x slower on busy cores`
          : ""
    }: ` +
    `${(model.fixedMs / 1000).toFixed(1)} s per split to split, measure and index + ${model.perQueryMs.toFixed(2)} ms ` +
    `per query, ${
      plan.spentOn === undefined
        ? `from a ${(plan.spentMs / 1000).toFixed(1)} s pilot`
        : `from the pilots; ${(plan.spentMs / 1000).toFixed(1)} s of ${plan.spentOn}`
    }`;
  const line = fits
    ? `${budget}: ${what}, estimated ${durationText(estimatedMs)} (${basis}).`
    : `${budget}: does not fit; running ${what}, estimated ${durationText(estimatedMs)}: splitting and indexing alone ` +
      `take about ${durationText(fixedMs)} (${basis}). ${plan.advice ?? "Sweep fewer configs or raise --budget."} ` +
      `The least run (${thousands(floor)} queries) needs about ${durationText(plan.spentMs + estimatedMs)} with ` +
      `the pilot: --budget ${budgetHolding(plan.spentMs + estimatedMs)} or more.`;
  return { queries, population, estimatedMs, fits, line };
}
