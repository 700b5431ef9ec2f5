// Less work per notebook when the budget is short: each notebook's cost at each of its declared work levels, the
// wall time of notebooks run `jobs` at a time, and the most work that fits.
import { busyCoresSlowdown, parallelThroughput } from "../../experiment/budget";
import { thousands } from "../../stats/format";
import { minutes } from "../budget-work";
import type { Declared } from "./declared-work";

/** In full-corpus units: one split + measure + index of the corpus, one query over one config, a kernel's load. */
export interface WorkCosts {
  splitMs: number;
  queryMs: number;
  loadMs: number;
  queries: number;
  /** Cost of the sampled cells of notebooks without levels (01, 02), by prefix. */
  fixedMs?: Readonly<Record<string, number>>;
  /** A notebook's own load cost when not `loadMs` (01 and 02 read only their document sample). */
  loadMsOf?: Readonly<Record<string, number>>;
  /** For levels reading a document sample: the corpus's characters, and the load of a sample of `share` of them. */
  corpusChars?: number;
  sampleLoadMs?: (share: number) => number;
}

export interface NotebookWork {
  prefix: string;
  /** Index into the notebook's declared levels (0 without levels), or -1: not run. */
  level: number;
  ran?: string;
  estimatedMs: number;
  fullMs: number;
  leastMs: number;
}

/** What to set aside within `leftMs` for notebooks' least work (ms, in priority order): each that still fits. */
export function reservedLeastMs(leastMs: readonly number[], leftMs: number): number {
  let reserved = 0;
  for (const ms of leastMs) if (reserved + ms <= leftMs) reserved += ms;
  return reserved;
}

/** The splits and query passes (at least 1) of work levels run together. */
export function workTotals(work: readonly { splits: number; configs: number }[]): { splits: number; configs: number } {
  const splits = work.reduce((total, w) => total + w.splits, 0);
  const configs = work.reduce((total, w) => total + w.configs, 0);
  return { splits, configs: Math.max(1, configs) };
}

/** Estimated ms of one notebook at a level (-1: not run). */
export function notebookMs(declared: Declared, prefix: string, level: number, costs: WorkCosts): number {
  if (level < 0) return 0;
  const work = declared[prefix]?.levels[level];
  const fixed = costs.fixedMs?.[prefix] ?? 0;
  const load = costs.loadMsOf?.[prefix] ?? costs.loadMs;
  if (!work) return load + fixed;
  if (work.documentChars !== undefined && costs.corpusChars !== undefined && costs.sampleLoadMs) {
    const share = Math.min(1, work.documentChars / Math.max(1, costs.corpusChars));
    return costs.sampleLoadMs(share) + fixed + work.splits * share * costs.splitMs;
  }
  return load + fixed + work.splits * costs.splitMs + work.configs * costs.queries * costs.queryMs;
}

/** Wall ms of notebooks taking `ms` each alone, `jobs` at a time: never below the longest, slowed by busy cores. */
export function wallMs(ms: readonly number[], jobs: number): number {
  const running = ms.filter((m) => m > 0);
  if (running.length === 0) return 0;
  const parallel = Math.max(1, Math.min(jobs, running.length));
  const total = running.reduce((a, b) => a + b, 0);
  if (parallel === 1) return total;
  const longest = Math.max(...running);
  const beside = Math.min(longest, (total - longest) / (parallel - 1));
  return Math.max(longest + (busyCoresSlowdown - 1) * beside, total / parallelThroughput(parallel));
}

/**
 * The most work that fits `budgetMs`: every notebook at its least work, notebooks left out from the last in priority
 * while that does not fit; then each left out comes back at its least work where it fits, then, round after round,
 * running ones move one level up where it fits. Fits = false when even the first notebook at its least does not.
 */
export function chooseNotebookWork(options: {
  budgetMs: number;
  prefixes: readonly string[];
  jobs: number;
  costs: WorkCosts;
  /** Notebooks that may not run (their kernel alone is over `--max-memory`). */
  excluded?: readonly string[];
  /** The fullest level (lowest index) each notebook may take. */
  fullest?: Readonly<Record<string, number>>;
  declared: Declared;
}) {
  const { costs, jobs, declared } = options;
  const rank = (prefix: string) => declared[prefix]?.priority ?? Infinity;
  const prefixes = [...options.prefixes].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const least = (p: string) => Math.max(0, (declared[p]?.levels.length ?? 0) - 1);
  const excluded = new Set(options.excluded ?? []);
  const level = new Map(prefixes.map((p) => [p, excluded.has(p) ? -1 : least(p)]));
  const estimates = () => prefixes.map((p) => notebookMs(declared, p, level.get(p)!, costs));
  const total = () => wallMs(estimates(), jobs);
  const fits = () => total() <= options.budgetMs;
  // the first notebook always runs: the plan then says it does not fit
  for (let i = prefixes.length - 1; i > 0 && !fits(); i--) level.set(prefixes[i], -1);
  // Admitting first: a notebook run reduced says more than a fuller one beside a notebook not run at all.
  for (const admitting of [true, false]) {
    for (let changed = true; changed && fits();) {
      changed = false;
      for (const p of prefixes) {
        const now = level.get(p)!;
        if (admitting !== now < 0) continue;
        const up = now < 0 ? least(p) : now - 1;
        if (now === 0 || excluded.has(p) || (now >= 0 && now <= (options.fullest?.[p] ?? 0))) continue;
        level.set(p, up);
        if (fits()) changed = true;
        else level.set(p, now);
      }
    }
  }
  const notebooks = prefixes.map((prefix): NotebookWork => {
    const at = level.get(prefix)!;
    const ran = at > 0 ? declared[prefix]?.levels[at]?.ran : undefined;
    return {
      prefix,
      level: at,
      ...(ran !== undefined ? { ran } : {}),
      estimatedMs: notebookMs(declared, prefix, at, costs),
      fullMs: notebookMs(declared, prefix, 0, costs),
      leastMs: notebookMs(declared, prefix, least(prefix), costs),
    };
  });
  return { notebooks, estimatedMs: total(), fits: fits() };
}

/** How a page note opens: the corpus size and the budget. */
export const noteOpening = (corpusChars: number, budgetMinutes: number): string =>
  `At this corpus size (${thousands(corpusChars / 1e6)} M characters), under \`--budget ${budgetMinutes}\``;

/** Bytes in GB with one decimal, as page notes and plan lines print them. */
export const noteGb = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(1)} GB`;

/** The page note: what this notebook ran under the budget, and what the full work would take. */
export function workNote(
  work: NotebookWork,
  context: { budgetMinutes: number; corpusChars: number; maxBytes?: number; memoryLimited?: boolean },
): string {
  const under = noteOpening(context.corpusChars, context.budgetMinutes);
  if (work.level < 0)
    return (
      `${under}, this notebook was **not run**: even its least work (about ${minutes(work.leastMs)}; the full ` +
      `version about ${minutes(work.fullMs)}) did not fit what the budget leaves after the notebooks ahead of it. ` +
      `Raise \`--budget\` or run it alone with \`--only ${work.prefix}\`.`
    );
  if (work.level === 0 || work.ran === undefined) return "";
  const raise = context.memoryLimited
    ? `its fuller work would not fit \`--max-memory\`${context.maxBytes ? ` (${noteGb(context.maxBytes)})` : ""}; raise it ` +
      `(and \`--budget\`) for the rest`
    : `raise \`--budget\` for the rest`;
  return (
    `${under}, this notebook ran less than its full work: ${work.ran} ` +
    `(estimated ${minutes(work.estimatedMs)}; the full version would take about ${minutes(work.fullMs)}). ` +
    `Numbers below are for what ran; ${raise}.`
  );
}

/** One line for the terminal: every notebook's choice (`overMemory`: those left out for `--max-memory`). */
export function workLine(
  plan: ReturnType<typeof chooseNotebookWork>,
  budgetMinutes: number,
  jobs: number,
  overMemory: readonly string[] = [],
): string {
  const parts = plan.notebooks.map((n) => {
    if (n.level < 0 && overMemory.includes(n.prefix)) return `${n.prefix} not run (its kernel is over --max-memory)`;
    if (n.level < 0) return `${n.prefix} not run (full ~${minutes(n.fullMs)})`;
    if (n.level === 0 || n.ran === undefined) return `${n.prefix} full (~${minutes(n.estimatedMs)})`;
    return `${n.prefix} reduced: ${n.ran} (~${minutes(n.estimatedMs)} of ~${minutes(n.fullMs)})`;
  });
  return (
    `budget ${budgetMinutes} min, work per notebook (${jobs} at a time, estimated ${minutes(plan.estimatedMs)}` +
    `${plan.fits ? "" : ", does NOT fit"}): ${parts.join("; ")}.`
  );
}
