// The `--budget` planner's inputs and output: plain data in, a plan out. What the planner measures or prints (the
// pilots, the clock, the report process's memory, its stderr lines) comes in as `BudgetProbes`, so the planning
// itself runs in a test with fake pilot results: no kernels, no child processes.
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
 * What the retrieval pilot measured: its cost model (scaled to the whole corpus), queries, and what a retrieval
 * notebook pays once (`loadMs`: its kernel's start, loading the corpus and its queries, and the setup its first
 * sweep shares with the rest, see `PilotResult.setupMs`).
 */
export interface RetrievalPilot {
  model: { fixedMs: number; perQueryMs: number };
  population: number;
  /** The corpus's characters over the (larger) pilot sample's. */
  scale: number;
  sampleChars: number;
  /** The smaller sample's characters when the costs were extrapolated from two samples (`extrapolateModel`). */
  smallSampleChars?: number;
  loadMs: number;
  spentMs: number;
}

/** What `--budget` asks the planner: the budget, the notebooks, and the limits the flags set. */
export interface BudgetInput {
  budgetMinutes: number;
  /** The notebooks' file names (`03-overlap-sweep.ipynb`), in run order. */
  names: readonly string[];
  /**
   * What each notebook declares in its metadata (`metadata.seamlab.work`, resolved against its parameters cell by
   * `readDeclaredWork`), by prefix: its work levels, sections, priority, kernel memory and sampled cells.
   */
  declared: Declared;
  /** `--jobs`. */
  requestedJobs: number;
  /** `--max-memory` in bytes (or the default). */
  maxBytes: number;
  /** The injected corpus (`--corpus`), or undefined for the notebooks' own defaults. */
  corpus?: string;
  /** The injected queries (`--queries`). */
  queries?: string;
  /** `SEAMLAB_WORKERS` as set in the environment: worker threads per kernel, overriding the planner's choice. */
  workersEnv?: string;
  /** A kernel's start (tslab, src/ loaded), counted once per notebook on top of loading its corpus. */
  kernelStartMs: number;
}

/** What the planner measures and prints, passed in: the CLI gives the real pilots, a test fakes them. */
export interface BudgetProbes {
  /** One line of the plan (the CLI prefixes `seamlab report: ` and writes it to stderr). */
  log: (line: string) => void;
  /** A clock in ms: the pilots' time counts against the budget. */
  now: () => number;
  /** The report process's resident memory in bytes, beside the kernels it starts. */
  rss: () => number;
  /** The corpus's size in bytes from its listing (no file read). */
  corpusBytes: (spec: string) => number;
  outlineCorpus: (spec: string) => CorpusOutline;
  /** The retrieval pilot (the CLI runs it in a child process); its outline of the corpus comes back with it. */
  retrievalPilot: (
    corpus: string,
    queries: string | undefined,
  ) => Promise<{ outline: CorpusOutline; pilot: RetrievalPilot }>;
  /** Called after the retrieval pilot: what it held is given back before the kernels start. */
  collectGarbage: () => void;
  /** 01-02's sampled cells (`cells`, by prefix) timed on the documents `ids` of `corpus`: ms per character each. */
  documentPilot: (
    corpus: string,
    ids: readonly string[],
    cells: Readonly<Record<string, SampledCells>>,
  ) => { perCharMs: Record<string, number> };
}

/** What `--budget` chose for the whole run: values injected into every notebook, per-notebook plans, and jobs. */
export interface BudgetPlan {
  parameters: Record<string, unknown>;
  plans: Record<string, NotebookBudgetPlan>;
  jobs: number;
  /** Worker threads per kernel when the default share would copy a large corpus into each. */
  kernelWorkers?: number;
}

/** What every step of the plan reads: the input, and what the retrieval pilot measured. Not changed once made. */
export interface PlanContext {
  input: BudgetInput;
  probes: BudgetProbes;
  /** `input.declared`: each notebook's declared work. */
  declared: Declared;
  prefixes: readonly string[];
  /** The prefixes of the notebooks that run retrieval queries (03-07: those declaring work levels). */
  retrieval: readonly string[];
  /** The prefixes of the notebooks that read a document sample (01-02: those declaring sampled cells). */
  docPrefixes: readonly string[];
  /** The corpus the retrieval notebooks load. */
  corpus: string;
  corpusChars: number;
  pilot: RetrievalPilot | undefined;
  /** Each kernel sweeps in its own thread (a corpus over `inThreadChars`). */
  inThread: boolean;
  /** `probes.now()` when planning started. */
  started: number;
  outlineOf: (spec: string) => CorpusOutline;
}
