import { availableParallelism } from "node:os";
import { SeamlabError } from "../core/errors";
import { openCache, defaultCacheDir } from "./cache";
import { executePlan, type TaskTiming } from "./execute";
import type { ExperimentConfig, GridSpec } from "./grid";
import { checkedConfigs, gridKeys, inputsId, planGrid } from "./plan";
import { createProgress, type ProgressStream } from "./progress";
import type { GridRow, RowOptions, SweepInputs } from "./rows";
import { costsWithRatios, type CostOptions, type CostWithRatios } from "./cost";

export interface RunGridOptions extends RowOptions {
  /** Worker threads; 0 runs every config in this thread. Default: all cores (at most one per task). */
  workers?: number;
  /** Null: no cache. Default `.seamlab-cache/` in the project root. */
  cacheDir?: string | null;
  quiet?: boolean;
  progressStream?: ProgressStream;
  progressLabel?: string;
  /** Stops scheduling and cancels running tasks; finished rows stay cached. */
  signal?: AbortSignal;
  /** Keep the threads for the next call (default true: a notebook pays their 1-2 s start-up once); false: cold. */
  keepWorkers?: boolean;
  /** Called as each computed row lands (finish order). */
  onRow?: (row: GridRow, done: number, total: number) => void;
  /** Not part of the cache key: costs are derived. */
  cost?: CostOptions;
}

export type CostedRow = GridRow & { cost: CostWithRatios };

export type GridResult = Awaited<ReturnType<typeof runGrid>>;
export type TaskTime = GridResult["taskTimes"][number];

/** All cores, unless SEAMLAB_WORKERS says otherwise (the report runner shares the cores between kernels). */
export function defaultWorkers(environment: Record<string, string | undefined> = process.env): number {
  const capped = environment.SEAMLAB_WORKERS;
  if (capped !== undefined && /^\d+$/.test(capped.trim())) return Number(capped.trim());
  return typeof availableParallelism === "function" ? availableParallelism() : 2;
}

function describeSplitterConfig({ splitter: s }: ExperimentConfig): string {
  return `${s.splitter} ${s.size}/${s.overlap} ${s.unit ?? "chars"}`;
}

/** A row's family: the configs equal in everything but the overlap (a cost family, a sweep's curve). */
export function overlapFamily(row: GridRow): string {
  const { overlap: _overlap, ...rest } = row.config.splitter;
  return JSON.stringify([rest, row.config.retrieval]);
}

function withCosts(rows: GridRow[], options: CostOptions | undefined): CostedRow[] {
  const costs = costsWithRatios(
    rows,
    (row) => {
      const { overlap } = row.config.splitter;
      return { group: overlapFamily(row), overlap, chunks: row.seams.chunks, tokensEmbedded: row.tokensEmbedded };
    },
    options,
  );
  return rows.map((row, i) => ({ ...row, cost: costs[i] }));
}

/** Runs a grid: each config's row from the disk cache when present, else computed and cached; in config order. */
export async function runGrid(
  inputs: SweepInputs,
  grid: readonly ExperimentConfig[] | GridSpec,
  options: RunGridOptions = {},
) {
  const started = Date.now();
  const startedPrecise = performance.now();
  const configs = checkedConfigs(grid);
  if (inputs.docs.length === 0)
    throw new SeamlabError("the corpus has no documents: check --corpus (empty files are skipped).");
  if (inputs.queries.length === 0) throw new SeamlabError("the query set is empty: nothing to evaluate.");
  const cache = openCache(options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir);
  const id = inputsId(inputs);
  const requested = options.workers ?? defaultWorkers();
  const plan = planGrid(configs, gridKeys(id, configs), (key) => cache.get(key) as GridRow | undefined, requested);
  const rows = plan.rows;

  const progress = createProgress(configs.length, {
    quiet: options.quiet,
    stream: options.progressStream,
    label: options.progressLabel ?? "sweep",
  });
  progress.skip(plan.cached + plan.duplicateOf.size);
  let computedRows = 0;
  const timeOf = (what: string, rows: number, timing: TaskTiming) => ({
    splitter: what,
    rows,
    ms: timing.ms,
    thread: timing.thread,
    startMs: timing.startedAt - (performance.timeOrigin + startedPrecise), // ms after runGrid was called
    cpuMs: timing.cpuMs,
    bootCpuMs: timing.bootCpuMs,
    osThread: timing.osThread,
  });
  const taskTimes: ReturnType<typeof timeOf>[] = []; // in finish order
  const setupTimes: ReturnType<typeof timeOf>[] = []; // each share of the documents' setup, before the tasks
  const accept = (indexes: number[], computed: GridRow[], timing: TaskTiming) => {
    computedRows += indexes.length;
    const names = [...new Set(indexes.map((i) => describeSplitterConfig(configs[i])))];
    taskTimes.push(timeOf(names.join(" + "), indexes.length, timing));
    computed.forEach((row, j) => {
      // A JSON round trip makes a fresh row identical to a cached one (-0, undefined).
      const plain = JSON.parse(JSON.stringify(row)) as GridRow;
      cache.put(plain.key, plain);
      rows[indexes[j]] = plain;
    });
    progress.tick(indexes.length);
    if (options.onRow) {
      const done = rows.filter((row) => row !== undefined).length;
      for (const i of indexes) options.onRow(rows[i] as GridRow, done, configs.length);
    }
  };

  const workers = Math.max(0, Math.min(requested, plan.tasks.length));
  try {
    await executePlan(
      inputs,
      plan,
      {
        workers,
        keepWorkers: options.keepWorkers !== false,
        signal: options.signal,
        rowOptions: { nearDuplicateThreshold: options.nearDuplicateThreshold, seed: options.seed },
        inputsId: `${id.corpusHash}:${id.queriesHash}`,
        onSetup: (timing) => setupTimes.push(timeOf("documents' setup", 0, timing)),
      },
      accept,
    );
  } finally {
    progress.done();
  }

  const interrupted = options.signal?.aborted === true && rows.some((row) => row === undefined);
  for (const [i, first] of plan.duplicateOf)
    if (rows[i] === undefined && rows[first] !== undefined) rows[i] = rows[first];
  const finished = rows.filter((row): row is GridRow => row !== undefined);
  return {
    rows: withCosts(finished, options.cost), // in config order (only the finished ones when interrupted)
    total: configs.length,
    cached: plan.cached,
    computed: computedRows,
    interrupted,
    elapsedMs: Date.now() - started,
    taskTimes,
    setupTimes,
    workers: plan.tasks.length === 0 ? 0 : workers,
  };
}
