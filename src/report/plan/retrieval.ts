// The retrieval notebooks under `--budget`: the query sample when their full work fits, else less work per notebook
// planned at 400 queries and the query sample that fits it; then each notebook's plan and time limit.
import { SeamlabError } from "../../core/errors";
import { chooseQueryBudget, parallelThroughput } from "../../experiment/budget";
import { thousands } from "../../stats/format";
import { chooseReportBudget } from "../budget";
import type { NotebookBudgetPlan } from "../budget-notebook";
import { minutes, notebookTimeLimitMs } from "../budget-work";
import { memoryNote, plannedQueryCount, sampleCosts } from "./memory";
import { chooseNotebookWork, notebookMs, workLine, workNote, workTotals, type WorkCosts } from "./work-levels";
import type { BudgetPlan, PlanContext, RetrievalPilot } from "./types";
import type { DocumentPlan } from "./documents";

/** What the plan of the notebooks' memory and of 01-02 settled before the retrieval notebooks are planned. */
export interface RetrievalState {
  jobs: number;
  /** Notebooks whose kernel alone is over --max-memory (not run). */
  overMemory: ReadonlySet<string>;
  runnable: readonly string[];
  /** The fullest work level each notebook may do within --max-memory. */
  fullest: Record<string, number>;
  /** 01-02's page note (else ""), sampled cells' and loads' ms. */
  docs: Pick<DocumentPlan, "note" | "costMs" | "loadMs">;
  /** The pilots' time, counted against the budget. */
  spentMs: number;
}

type RetrievalPlan = Pick<BudgetPlan, "parameters" | "plans">;

function pilotLine(pilot: RetrievalPilot, corpusChars: number): string {
  if (pilot.scale > 1 && pilot.smallSampleChars !== undefined)
    return (
      `piloted in CPU time on seeded samples of ${thousands(pilot.smallSampleChars)} and ` +
      `${thousands(pilot.sampleChars)} of ${thousands(corpusChars)} characters, ` +
      `costs extrapolated along the line through both (at most ×${pilot.scale.toFixed(1)})`
    );
  if (pilot.scale > 1)
    return (
      `piloted in CPU time on a seeded sample of ${thousands(pilot.sampleChars)} of ` +
      `${thousands(corpusChars)} characters, costs scaled ×${pilot.scale.toFixed(1)}`
    );
  return `piloted in CPU time on the whole corpus`;
}

/** 01-02's sample notes, and the note of each notebook left out by --max-memory. */
function documentNotes(ctx: PlanContext, state: RetrievalState): Record<string, NotebookBudgetPlan> {
  const plans: Record<string, NotebookBudgetPlan> = {};
  for (const prefix of ctx.docPrefixes)
    if (state.docs.note && !state.overMemory.has(prefix)) plans[prefix] = { note: state.docs.note };
  for (const prefix of state.overMemory) plans[prefix] = { skipAll: true, note: memoryNote(ctx, prefix) };
  return plans;
}

/** Each notebook that runs, with its estimate (the ETA) and its time limit (stopped and left out past it). */
function withTimes(
  ctx: PlanContext,
  state: RetrievalState,
  plans: Record<string, NotebookBudgetPlan>,
  costs: WorkCosts | undefined,
  levelOf: (prefix: string) => number,
): Record<string, NotebookBudgetPlan> {
  const timed = { ...plans };
  for (const prefix of ctx.prefixes) {
    if (state.overMemory.has(prefix) || levelOf(prefix) < 0) continue;
    const estimatedMs = costs
      ? notebookMs(ctx.input.declared, prefix, levelOf(prefix), costs)
      : (state.docs.loadMs[prefix] ?? 0) + (state.docs.costMs[prefix] ?? 0);
    if (!(estimatedMs > 0)) continue;
    timed[prefix] = { ...timed[prefix], estimatedMs, timeLimitMs: notebookTimeLimitMs(estimatedMs) };
  }
  return timed;
}

/** The plan when no retrieval notebook runs: 01-02's notes and times only. */
export function planWithoutQueries(ctx: PlanContext, state: RetrievalState): RetrievalPlan {
  const why =
    ctx.retrieval.length > 0
      ? "every notebook that runs retrieval queries is over --max-memory"
      : "none of these notebooks runs retrieval queries";
  ctx.probes.log(`budget ${ctx.input.budgetMinutes} min: ${why}; no query sample to choose.`);
  return { parameters: {}, plans: withTimes(ctx, state, documentNotes(ctx, state), undefined, () => 0) };
}

/** The query sample, or less work per notebook when the fewest queries do not fit; throws when the least does not. */
export function planRetrieval(ctx: PlanContext, pilot: RetrievalPilot, state: RetrievalState): RetrievalPlan {
  const { budgetMinutes, maxBytes } = ctx.input;
  const { jobs, runnable, fullest, spentMs } = state;
  const { costMs: docCostMs, loadMs: docLoadMs } = state.docs;
  const say = ctx.probes.log;
  const corpusChars = ctx.corpusChars;
  const piloted = pilotLine(pilot, corpusChars);
  const sampled = sampleCosts(ctx);
  const sampleOf = (n: number) => (n >= pilot.population ? "all" : n);
  const parallel = Math.max(1, Math.min(jobs, runnable.length));
  // What each notebook pays besides its queries and splits: its load, and 01-02's sampled cells.
  const fixedMs = (prefixes: readonly string[]) =>
    prefixes.reduce((sum, prefix) => sum + (docLoadMs[prefix] ?? pilot.loadMs) + (docCostMs[prefix] ?? 0), 0);
  const loadsMs = fixedMs(runnable.map((name) => name.slice(0, 2))) / parallelThroughput(parallel);
  const full = chooseReportBudget({
    budgetMinutes,
    notebooks: runnable,
    jobs,
    model: pilot.model,
    spentMs: spentMs + loadsMs,
    spentOn: "pilots, and kernel loads and sweep setups set aside",
    population: pilot.population,
    declared: ctx.input.declared,
  });
  const memoryLimited = Object.keys(fullest).filter((prefix) => fullest[prefix] > 0);
  const base = { splitMs: pilot.model.fixedMs, queryMs: pilot.model.perQueryMs, loadMs: pilot.loadMs };
  if (full.fits && memoryLimited.length === 0) {
    say(`${full.line} (${piloted}; kernel load and sweep setup ~${(pilot.loadMs / 1000).toFixed(0)} s each)`);
    const costs = { ...base, queries: Math.min(full.queries, pilot.population), fixedMs: docCostMs };
    return {
      parameters: { querySample: sampleOf(full.queries) },
      plans: withTimes(ctx, state, documentNotes(ctx, state), { ...costs, loadMsOf: docLoadMs, ...sampled }, () => 0),
    };
  }
  // Even the fewest queries do not fit the full work: less work per notebook, then the query sample that fits it.
  const plannedQueries = Math.min(pilot.population, plannedQueryCount);
  const overMemory = [...state.overMemory];
  const costs: WorkCosts = { ...base, queries: plannedQueries, fixedMs: docCostMs, loadMsOf: docLoadMs, ...sampled };
  const plan = chooseNotebookWork({
    budgetMs: budgetMinutes * 60_000 - spentMs,
    prefixes: ctx.prefixes,
    jobs,
    costs,
    excluded: overMemory,
    fullest,
    declared: ctx.input.declared,
  });
  say(
    `${workLine(plan, budgetMinutes, jobs, overMemory)} (${piloted}; ${(pilot.model.fixedMs / 1000).toFixed(1)} s per ` +
      `split, ${(pilot.loadMs / 1000).toFixed(0)} s per kernel load and sweep setup, ${(spentMs / 1000).toFixed(0)} s of pilots)`,
  );
  if (!plan.fits) {
    throw new SeamlabError(
      `--budget ${budgetMinutes}: too small for this corpus (${thousands(corpusChars)} characters): ` +
        `even the least work of notebook ${plan.notebooks[0]?.prefix} needs about ` +
        `${minutes(plan.notebooks[0]?.leastMs ?? 0)}, the run about ${minutes(plan.estimatedMs + spentMs)} with ` +
        `${minutes(spentMs)} of pilots (${piloted}). Raise --budget or run fewer notebooks (--only).`,
    );
  }
  const running = plan.notebooks.filter((n) => n.level >= 0);
  const work = running.map((n) => ctx.input.declared[n.prefix]?.levels[n.level]).filter((w) => w !== undefined);
  const runningParallel = Math.max(1, Math.min(jobs, running.length));
  const fixedRest = fixedMs(running.map((n) => n.prefix));
  if (work.length === 0) say(`budget ${budgetMinutes} min: no retrieval notebook runs, so no query sample is chosen.`);
  const chosen = chooseQueryBudget({
    budgetMs: budgetMinutes * 60_000,
    spentMs: spentMs + fixedRest / parallelThroughput(runningParallel),
    spentOn: "pilots, and kernel loads, sweep setups and 01-02's cells set aside",
    ...workTotals(work),
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
  const plans: Record<string, NotebookBudgetPlan> = {};
  for (const n of plan.notebooks) {
    const levels = ctx.input.declared[n.prefix]?.levels;
    const note = state.overMemory.has(n.prefix)
      ? memoryNote(ctx, n.prefix)
      : ctx.docPrefixes.includes(n.prefix)
        ? state.docs.note
        : workNote(n, {
            budgetMinutes,
            corpusChars,
            maxBytes,
            memoryLimited: n.level >= 0 && n.level === fullest[n.prefix] && fullest[n.prefix] > 0,
          });
    if (n.level < 0) plans[n.prefix] = { skipAll: true, note };
    else if (levels && levels.length > 0 && n.level > 0)
      plans[n.prefix] = { parameters: levels[n.level].parameters, skip: levels[n.level].skip, note };
    else if (note) plans[n.prefix] = { note };
  }
  const levelOf = new Map(plan.notebooks.map((n) => [n.prefix, n.level]));
  const runCosts = { ...costs, queries: Math.min(queryCount, pilot.population) };
  const timed = withTimes(ctx, state, plans, runCosts, (prefix) => levelOf.get(prefix) ?? -1);
  return { parameters: { querySample: sampleOf(queryCount) }, plans: timed };
}
