// `--budget MIN`: the query sample of the retrieval notebooks, so that their estimated time fits (a pilot gives the
// cost of one split and of one query), and the document sample of 01-02, timed by a pilot of their sampled cells.
import { totalChars, type Doc } from "../core/types";
import { thousands } from "../stats/format";
import { documentSample, type SampleRequest } from "../corpus/sample";
import {
  budgetMinutesText,
  chooseQueryBudget,
  parallelThroughput,
  type BudgetChoice,
  type ConfigCostModel,
} from "../experiment/budget";
import { seamDamageRows } from "../study/damage";
import { measureSplitters } from "../study/seams";
import type { Declared, SampledCells } from "./plan/declared-work";
import { workTotals } from "./plan/work-levels";

/** The query sample for the notebooks that will run (file names), and the line saying what and why. */
export function chooseReportBudget(options: {
  budgetMinutes: number;
  notebooks: readonly string[];
  jobs: number;
  model: ConfigCostModel;
  spentMs: number;
  spentOn?: string;
  population: number;
  declared: Declared;
}): BudgetChoice & { modelled: string[] } {
  const full = (name: string) => options.declared[name.slice(0, 2)]?.levels[0];
  const modelled = options.notebooks.filter((name) => full(name) !== undefined);
  const work = modelled.map((name) => full(name)!);
  const plan = (parts: readonly { splits: number; configs: number }[], parallel: number, besideOthers = false) =>
    chooseQueryBudget({
      budgetMs: options.budgetMinutes * 60_000,
      spentMs: options.spentMs,
      spentOn: options.spentOn,
      ...workTotals(parts),
      parallel,
      besideOthers,
      model: options.model,
      population: options.population,
      advice: "Run fewer notebooks (--only) or raise --budget.",
    });
  // `jobs` at a time, but no faster than the longest one, which runs beside the others (slower on busy cores).
  const shared = plan(work, Math.max(1, Math.min(options.jobs, modelled.length)));
  const besideOthers = options.jobs > 1 && options.notebooks.length > 1;
  const longest = plan([work.reduce((a, b) => (b.splits + b.configs > a.splits + a.configs ? b : a))], 1, besideOthers);
  const choice = longest.queries < shared.queries ? longest : shared;
  const others = options.notebooks
    .map((name) => name.slice(0, 2))
    .filter((prefix) => options.declared[prefix]?.levels[0] === undefined && !options.declared[prefix]?.pilot);
  const rest = others.length > 0 ? ` Notebooks ${others.join(", ")} are not in the estimate.` : "";
  return {
    ...choice,
    modelled,
    line: `${choice.line.replace(/^(budget [^:]+): /, `$1 for notebooks ${modelled.map((n) => n.slice(0, 2)).join(", ")}: `)}${rest}`,
  };
}

/** A sampled cell as the pilot times it: it measures the documents of `sample`. */
export type SampledMeasure = (docs: readonly Doc[], sample: SampleRequest) => unknown;

/** The sampled cells of each document notebook (by prefix) as the pilot times them, at its own parameters. */
export function sampledMeasures(cells: Readonly<Record<string, SampledCells>>): Record<string, SampledMeasure> {
  return Object.fromEntries(
    Object.entries(cells).map(([prefix, c]): [string, SampledMeasure] => [
      prefix,
      c.kind === "seams"
        ? (docs, sample) => measureSplitters(docs, c.splitters, c.size, c.overlap, { sample })
        : (docs, sample) => seamDamageRows(docs, c.splitters, c.size, c.overlaps, { sample }),
    ]),
  );
}

/** The fewest documents a budget sample takes (fewer say little about between-document variation). */
export const minBudgetDocuments = 20;

export interface DocumentBudgetChoice {
  /** Documents to inject as `sample`, or undefined to keep `auto` (every document fits). */
  sample?: number;
  /** Estimated ms of the sampled cells of each notebook, summed. */
  estimatedMs: number;
  line: string;
}

/**
 * The document sample of 01 and 02: each modelled notebook gets an equal share of what `jobs` at a time can do in the
 * budget left after the pilots, no more than that time alone, nor more than is left once the other notebooks' least
 * work (`reservedMs`) is set aside (else their share squeezed out notebooks that could run reduced). A sample of n
 * documents holds about n mean-length documents (it is stratified by length).
 */
export function chooseDocumentBudget(options: {
  budgetMinutes: number;
  /** Sampled cost per character, per notebook prefix that runs ("01", "02"). */
  perCharMs: Readonly<Record<string, number>>;
  modelledNotebooks: number;
  jobs: number;
  spentMs: number;
  docLengths: readonly number[];
  /** Wall ms kept out of the share: the other notebooks' least work and these notebooks' own loads. */
  reservedMs?: number;
}): DocumentBudgetChoice {
  const names = Object.keys(options.perCharMs).sort();
  const population = options.docLengths.length;
  const meanChars = options.docLengths.reduce((s, n) => s + n, 0) / Math.max(1, population);
  const left = Math.max(0, options.budgetMinutes * 60_000 - options.spentMs);
  const modelled = Math.max(names.length, options.modelledNotebooks);
  const throughput = parallelThroughput(Math.min(options.jobs, modelled));
  // 95%: filled exactly, rounding lost the last notebook reserved for
  const afterReserved = (0.95 * Math.max(0, left - (options.reservedMs ?? 0)) * throughput) / names.length;
  const share = Math.min(left, (left * throughput) / modelled, afterReserved);
  const costliest = Math.max(...names.map((name) => options.perCharMs[name]));
  const perDocMs = costliest * meanChars;
  const fitting = perDocMs > 0 ? Math.floor(share / perDocMs) : population;
  const n = Math.min(population, Math.max(Math.min(population, minBudgetDocuments), fitting));
  const estimate = (docs: number) =>
    names.reduce((sum, name) => sum + options.perCharMs[name] * meanChars * docs, 0) / throughput;
  const which = `notebooks ${names.join(", ")} (their sampled seam cells)`;
  const basis =
    `${names.map((name) => `${name} ${(options.perCharMs[name] * 1e6).toFixed(0)} ms`).join(", ")} per million ` +
    `characters measured, from a pilot; mean document ${thousands(meanChars)} characters`;
  const budget = `budget ${budgetMinutesText(options.budgetMinutes)} min`;
  // under a second in ms ("0.0 s" said nothing), under a minute in s, else in min
  const took = (ms: number) =>
    ms < 1000
      ? `${ms < 1 ? "<1" : Math.round(ms)} ms`
      : ms < 60_000
        ? `${(ms / 1000).toFixed(1)} s`
        : `${(ms / 60_000).toFixed(1)} min`;
  if (fitting >= population) {
    return {
      estimatedMs: estimate(population),
      line:
        `${budget} for ${which}: every one of the ${thousands(population)} documents fits ` +
        `(estimated ${took(estimate(population))}), so their sample stays auto (±1 point) (${basis}).`,
    };
  }
  const fits = fitting >= n;
  return {
    sample: n,
    estimatedMs: estimate(n),
    line:
      `${budget} for ${which}: ${fits ? "" : "does not fit; "}a seeded stratified sample of ` +
      `${thousands(n)} of ${thousands(population)} documents, estimated ` +
      `${took(estimate(n))}; their CIs (cluster bootstrap over documents) say how wide that ` +
      `leaves them (${basis}).`,
  };
}

export const documentPilotSize = 30;

/** Times each notebook's sampled cells on a seeded sample of `documentPilotSize` documents: ms per character. */
export function pilotDocumentCost(
  docs: readonly Doc[],
  measures: Readonly<Record<string, SampledMeasure>>,
  now: () => number = () => performance.now(),
): { perCharMs: Record<string, number>; spentMs: number } {
  const started = now();
  const count = Math.min(docs.length, documentPilotSize);
  const chars = totalChars(documentSample(docs, count).docs);
  const perCharMs: Record<string, number> = {};
  for (const [prefix, measure] of Object.entries(measures)) {
    // Untimed on two documents first: what a kernel pays once (a splitter's thread starting, compiling the hot code)
    // was otherwise counted per character (2.0 s per million at 1 GB, where the kernel measured 0.26).
    measure(docs, { kind: "count", count: Math.min(docs.length, 2) });
    const t0 = now();
    measure(docs, { kind: "count", count });
    perCharMs[prefix] = (now() - t0) / Math.max(1, chars);
  }
  return { perCharMs, spentMs: now() - started };
}
