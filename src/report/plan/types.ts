// The `--budget` planner's inputs and output. What it measures or prints comes in as `BudgetProbes`, so a test runs
// the planning with fake pilot results: no kernels, no child processes.
import type { DocOutline } from "../../corpus/sample";
import type { NotebookBudgetPlan } from "../budget-notebook";
import type { Declared, SampledCells } from "./declared-work";

/** One streaming pass over a corpus: each document's id and length, and how long reading it all took. */
export interface CorpusOutline {
  outlines: DocOutline[];
  chars: number;
  readMs: number;
}

/**
 * The retrieval pilot's cost model (scaled to the whole corpus) and queries, and what a retrieval notebook pays once
 * (`loadMs`: kernel start, loading the corpus and queries, the setup its sweeps share).
 */
export interface RetrievalPilot {
  model: { fixedMs: number; perQueryMs: number };
  population: number;
  /** The corpus's characters over the (larger) pilot sample's. */
  scale: number;
  sampleChars: number;
  /** The smaller sample's characters when the costs were extrapolated from two samples. */
  smallSampleChars?: number;
  loadMs: number;
  spentMs: number;
}

export interface BudgetInput {
  budgetMinutes: number;
  /** The notebooks' file names (`03-overlap-sweep.ipynb`), in run order. */
  names: readonly string[];
  /** Each notebook's declared work (`readDeclaredWork`), by prefix. */
  declared: Declared;
  requestedJobs: number;
  /** `--max-memory` in bytes (or the default). */
  maxBytes: number;
  /** `--corpus`, or undefined for the notebooks' own defaults. */
  corpus?: string;
  queries?: string;
  /** `SEAMLAB_WORKERS` as set in the environment: worker threads per kernel, overriding the planner's choice. */
  workersEnv?: string;
  /** A kernel's start, counted once per notebook on top of loading its corpus. */
  kernelStartMs: number;
}

/** What the planner measures and prints: the CLI gives the real pilots, a test fakes them. */
export interface BudgetProbes {
  log: (line: string) => void;
  /** A clock in ms: the pilots' time counts against the budget. */
  now: () => number;
  /** The report process's resident memory in bytes. */
  rss: () => number;
  /** The corpus's size in bytes from its listing (no file read). */
  corpusBytes: (spec: string) => number;
  outlineCorpus: (spec: string) => CorpusOutline;
  /** The retrieval pilot (the CLI runs it in a child process); its outline of the corpus comes back with it. */
  retrievalPilot: (corpus: string, queries?: string) => Promise<{ outline: CorpusOutline; pilot: RetrievalPilot }>;
  /** Gives back what the retrieval pilot held before the kernels start. */
  collectGarbage: () => void;
  /** 01-02's sampled cells timed on the documents `ids` of `corpus`: ms per character each. */
  documentPilot: (
    corpus: string,
    ids: readonly string[],
    cells: Readonly<Record<string, SampledCells>>,
  ) => { perCharMs: Record<string, number> };
}

export interface BudgetPlan {
  /** Injected into every notebook. */
  parameters: Record<string, unknown>;
  plans: Record<string, NotebookBudgetPlan>;
  jobs: number;
  /** Worker threads per kernel when the default share would copy a large corpus into each. */
  kernelWorkers?: number;
}

/** What every step of the plan reads; not changed once made. */
export interface PlanContext {
  input: BudgetInput;
  probes: BudgetProbes;
  prefixes: readonly string[];
  /** The notebooks that run retrieval queries (those declaring work levels). */
  retrieval: readonly string[];
  /** The notebooks that read a document sample (those declaring sampled cells). */
  docPrefixes: readonly string[];
  corpus: string;
  corpusChars: number;
  pilot: RetrievalPilot | undefined;
  /** Each kernel sweeps in its own thread (a corpus over `inThreadChars`). */
  inThread: boolean;
  started: number;
  outlineOf: (spec: string) => CorpusOutline;
}
