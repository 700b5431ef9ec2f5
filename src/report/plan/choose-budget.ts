// `--budget` (and `--max-memory`): pilots, then the document sample of 01-02, the notebooks at once, the query
// sample, and, when even that does not fit, less work per notebook; each choice said in one line.
import { defaultCorpus } from "../../corpus/defaults";
import { inThreadChars } from "../budget-work";
import { planDocuments } from "./documents";
import { fullestLevels, kernelBytes, memoryJobs } from "./memory";
import { planRetrieval, planWithoutQueries } from "./retrieval";
import type { BudgetInput, BudgetPlan, BudgetProbes, CorpusOutline, PlanContext } from "./types";

/** The plan of a `--budget` run. Throws a SeamlabError naming --budget when not even the least work fits. */
export async function planBudget(input: BudgetInput, probes: BudgetProbes): Promise<BudgetPlan> {
  const { maxBytes } = input;
  const say = probes.log;
  const prefixes = input.names.map((name) => name.slice(0, 2));
  // each corpus read once (the retrieval pilot's outline seeds it)
  const outlines = new Map<string, CorpusOutline>();
  const outlineOf = (spec: string) => outlines.get(spec) ?? outlines.set(spec, probes.outlineCorpus(spec)).get(spec)!;
  const started = probes.now();
  const { declared } = input;
  const retrieval = prefixes.filter((prefix) => (declared[prefix]?.levels.length ?? 0) > 0);
  const docPrefixes = prefixes.filter((prefix) => declared[prefix]?.pilot !== undefined);
  const corpus = input.corpus ?? defaultCorpus("markdown");
  // No retrieval pilot when every retrieval notebook's kernel alone is over --max-memory; the corpus's bytes bound its
  // characters from above, so it is read for its exact size only when even that bound says "over".
  const retrievalOverMemory =
    retrieval.length > 0 &&
    retrieval.every((p) => kernelBytes(declared, p, probes.corpusBytes(corpus), 0) > maxBytes - probes.rss()) &&
    retrieval.every((p) => kernelBytes(declared, p, outlineOf(corpus).chars, 0) > maxBytes - probes.rss());
  if (retrievalOverMemory) say(`every retrieval notebook's kernel alone is over --max-memory: no retrieval pilot.`);
  const pilotRun =
    retrieval.length > 0 && !retrievalOverMemory ? await probes.retrievalPilot(corpus, input.queries) : undefined;
  if (pilotRun) outlines.set(corpus, pilotRun.outline);
  const pilot = pilotRun?.pilot;
  probes.collectGarbage();
  const corpusChars = retrieval.length > 0 ? outlineOf(corpus).chars : 0;
  // Above 200 M characters the kernels sweep in their own thread: each worker thread would hold a corpus copy.
  const inThread = corpusChars > inThreadChars && input.workersEnv === undefined;
  if (inThread)
    say(
      `corpus over ${(inThreadChars / 1e6).toFixed(0)} M characters: each notebook's sweeps run in its kernel's ` +
        `own thread (a worker thread would hold its own copy of the corpus).`,
    );
  const ctx: PlanContext = {
    input,
    probes,
    prefixes,
    retrieval,
    docPrefixes,
    corpus,
    corpusChars,
    pilot,
    inThread,
    started,
    outlineOf,
  };
  // 01 and 02 first (their sample sizes their kernels)
  const docs = docPrefixes.length > 0 ? planDocuments(ctx) : undefined;
  const memory = docs?.memory ?? memoryJobs(ctx, () => corpusChars);
  if (!docs) say(memory.line);
  const jobs = docs?.jobs ?? memory.jobs;
  // A notebook whose kernel alone is over --max-memory does not run, whatever the time budget allows.
  const overMemory = new Set(memory.overLimit);
  if (retrievalOverMemory) for (const prefix of retrieval) overMemory.add(prefix);
  const runnable = input.names.filter((name) => !overMemory.has(name.slice(0, 2)));
  const fullest = fullestLevels(ctx, runnable, jobs);
  const state = { jobs, overMemory, runnable, fullest, docs: docs ?? { note: "", costMs: {}, loadMs: {} }, spentMs: 0 };
  const retrievalPlan =
    !pilot || !runnable.some((name) => retrieval.includes(name.slice(0, 2)))
      ? planWithoutQueries(ctx, state)
      : planRetrieval(ctx, pilot, { ...state, spentMs: probes.now() - started });
  const sample = docs?.sample !== undefined ? { sample: docs.sample } : {};
  const parameters = { ...sample, ...retrievalPlan.parameters };
  return { parameters, plans: retrievalPlan.plans, jobs, ...(inThread ? { kernelWorkers: 0 } : {}) };
}
