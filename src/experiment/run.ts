import { setMaxListeners } from "node:events";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SeamlabError } from "../core/errors";
import { checkRerankerName } from "../retrieval/rerank";
import { validateSplitterConfig } from "../splitters/registry";
import { cacheKey, hashDocs, hashQueries, openCache, defaultCacheDir } from "./cache";
import { costsWithRatios, type CostOptions, type CostWithRatios } from "./cost";
import { expandGrid, normalizeConfig, splitterKey, type ExperimentConfig, type GridSpec } from "./grid";
import { codeFingerprint } from "./fingerprint";
import { projectRoot, seamlabVersion } from "./paths";
import { createProgress, type ProgressStream } from "./progress";
import { computeTaskRows, type GridRow, type RowOptions, type SweepInputs } from "./rows";
import { encodeInputs, type RowTask, type RowTaskResult } from "./worker";

export interface RunGridOptions extends RowOptions {
  /** Worker threads; 0 runs every config in this thread. Default: all cores (at most one per task). */
  workers?: number;
  /** Cache folder, or null for no cache. Default `.seamlab-cache/` in the project root. */
  cacheDir?: string | null;
  /** Never draw the progress bar. */
  quiet?: boolean;
  progressStream?: ProgressStream;
  progressLabel?: string;
  /** Stops scheduling and cancels running tasks; finished rows stay cached. */
  signal?: AbortSignal;
  /**
   * Keep the worker threads for the next call (default true): a thread's start-up (TypeScript loader,
   * tokenizer tables, per-corpus caches) costs a second or two, which a notebook calling runGrid several
   * times pays once. Idle threads do not keep the process alive. False gives a cold pool, as benchmarks need.
   */
  keepWorkers?: boolean;
  /** Called in the main thread as each computed row lands (finish order, not config order). */
  onRow?: (row: GridRow, done: number, total: number) => void;
  /** Price and vector size for the cost columns (not part of the cache key: costs are derived). */
  cost?: CostOptions;
}

export type CostedRow = GridRow & { cost: CostWithRatios };

export interface TaskTime {
  splitter: string;
  rows: number;
  ms: number;
}

export interface GridResult {
  /** One row per config, in config order (only the finished ones when interrupted). */
  rows: CostedRow[];
  total: number;
  cached: number;
  computed: number;
  interrupted: boolean;
  /** Wall time of this call in ms (not part of any row). */
  elapsedMs: number;
  /** Time each computed task took (split + measure + index + queries of one splitter config), in finish order. */
  taskTimes: TaskTime[];
  workers: number;
}

/** Default worker entry: a small .mjs that registers tsx, then loads worker.ts. */
export function workerEntryFile(): string {
  return join(projectRoot(), "src", "experiment", "worker-entry.mjs");
}

// Kept pools by thread count (see RunGridOptions.keepWorkers). Typed loosely: piscina is imported lazily.
interface Pool {
  run(task: unknown, options: { signal: AbortSignal }): Promise<unknown>;
  destroy(): Promise<void>;
}
const keptPools = new Map<number, Pool>();

async function workerPool(threads: number, keep: boolean): Promise<Pool> {
  const kept = keep ? keptPools.get(threads) : undefined;
  if (kept) return kept;
  const { Piscina } = await import("piscina");
  const pool: Pool = new Piscina({
    filename: pathToFileURL(workerEntryFile()).href,
    // No resident threads: they start as tasks queue up and exit after a minute idle, freeing their caches.
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
  if (keep) keptPools.set(threads, pool);
  return pool;
}

/** Stops the worker threads kept between runGrid calls. */
export async function closeWorkers(): Promise<void> {
  const pools = [...keptPools.values()];
  keptPools.clear();
  await Promise.all(pools.map((pool) => pool.destroy()));
}

function defaultWorkers(): number {
  return typeof availableParallelism === "function" ? availableParallelism() : 2;
}

/**
 * A rough relative cost of one task, for scheduling only (results never depend on it): token windows
 * encode the whole corpus with js-tiktoken, the real LangChain splitter is slower than the span-native ones,
 * and overlap multiplies the text that is indexed.
 */
function estimatedCost(config: ExperimentConfig): number {
  const s = config.splitter;
  const base = s.splitter === "tokens" || s.unit === "tokens" ? 4 : s.splitter === "langchain" ? 3 : 2;
  return base * (1 + s.overlap / s.size);
}

function describeSplitterConfig(config: ExperimentConfig): string {
  const s = config.splitter;
  return `${s.splitter} ${s.size}/${s.overlap} ${s.unit ?? "chars"}`;
}

/** The rows of a cost family: everything but the overlap is equal. */
function costGroup(row: GridRow): string {
  const { overlap: _overlap, ...rest } = row.config.splitter;
  return JSON.stringify([rest, row.config.retrieval]);
}

function withCosts(rows: GridRow[], options: CostOptions | undefined): CostedRow[] {
  const costs = costsWithRatios(
    rows,
    (row) => ({
      group: costGroup(row),
      overlap: row.config.splitter.overlap,
      chunks: row.seams.chunks,
      tokensEmbedded: row.tokensEmbedded,
    }),
    options,
  );
  return rows.map((row, i) => ({ ...row, cost: costs[i] }));
}

/**
 * The grid's configs, normalised, each checked (splitter options, reranker name) so that a typo fails
 * before any corpus is loaded or thread started.
 */
export function checkedConfigs(grid: readonly ExperimentConfig[] | GridSpec): ExperimentConfig[] {
  const configs = Array.isArray(grid)
    ? (grid as ExperimentConfig[]).map(normalizeConfig)
    : expandGrid(grid as GridSpec);
  for (const config of configs) {
    validateSplitterConfig(config.splitter);
    checkRerankerName(config.retrieval.reranker ?? "none");
  }
  return configs;
}

/**
 * Runs an experiment grid over one corpus and query set: each config's row comes from the disk cache when
 * present, else is computed (configs sharing a splitter config are split and indexed once, on a worker
 * thread) and cached. Rows come back in config order whatever order they finished in.
 */
export async function runGrid(
  inputs: SweepInputs,
  grid: readonly ExperimentConfig[] | GridSpec,
  options: RunGridOptions = {},
): Promise<GridResult> {
  const started = Date.now();
  const configs = checkedConfigs(grid);
  if (inputs.docs.length === 0)
    throw new SeamlabError("the corpus has no documents: check --corpus (empty files are skipped).");
  if (inputs.queries.length === 0) throw new SeamlabError("the query set is empty: nothing to evaluate.");
  const cache = openCache(options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir);
  const corpusHash = hashDocs(inputs.docs);
  const queriesHash = hashQueries(inputs.queries);
  // The version and a hash of the code behind the numbers: a release or an edit never reads old rows.
  const version = `${seamlabVersion()}+${codeFingerprint()}`;
  const keys = configs.map((config) => cacheKey({ corpusHash, queriesHash, config, version }));

  const rows: (GridRow | undefined)[] = configs.map(() => undefined);
  const missing = new Map<string, number[]>(); // splitter key -> config indexes
  let cached = 0;
  let duplicates = 0;
  const firstIndexOfKey = new Map<string, number>();
  keys.forEach((key, i) => {
    const hit = cache.get(key) as GridRow | undefined;
    if (hit && hit.key === key) {
      rows[i] = hit;
      cached++;
      return;
    }
    if (firstIndexOfKey.has(key)) {
      duplicates++; // filled from its first occurrence at the end
      return;
    }
    firstIndexOfKey.set(key, i);
    const group = splitterKey(configs[i]);
    if (!missing.has(group)) missing.set(group, []);
    (missing.get(group) as number[]).push(i);
  });

  const progress = createProgress(configs.length, {
    quiet: options.quiet,
    stream: options.progressStream,
    label: options.progressLabel ?? "sweep",
  });
  progress.skip(cached + duplicates);
  const rowOptions: RowOptions = { nearDuplicateThreshold: options.nearDuplicateThreshold, seed: options.seed };
  // Token-window configs of one encoding go to one thread: each thread that tokenises the corpus pays the
  // tokenizer's per-piece warm-up (seconds) again. Then the heaviest tasks first, so the pool does not end
  // on one long task while the other threads idle.
  const tasks = new Map<string, number[]>();
  for (const [id, indexes] of missing) {
    const s = configs[indexes[0]].splitter;
    const affinity = s.splitter === "tokens" || s.unit === "tokens" ? `tokens:${s.encoding ?? "cl100k_base"}` : id;
    if (!tasks.has(affinity)) tasks.set(affinity, []);
    (tasks.get(affinity) as number[]).push(...indexes);
  }
  const taskCost = (indexes: number[]) => indexes.reduce((sum, i) => sum + estimatedCost(configs[i]), 0);
  const groups = [...tasks.values()].sort((a, b) => taskCost(b) - taskCost(a) || a[0] - b[0]);
  const taskTimes: TaskTime[] = [];
  let computedRows = 0;
  const accept = (indexes: number[], computed: GridRow[], ms: number) => {
    computedRows += indexes.length;
    const names = [...new Set(indexes.map((i) => describeSplitterConfig(configs[i])))];
    taskTimes.push({ splitter: names.join(" + "), rows: indexes.length, ms });
    computed.forEach((row, j) => {
      // A JSON round trip makes a fresh row identical to what a later run reads from the cache (-0, undefined).
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

  const requested = options.workers ?? defaultWorkers();
  const workers = Math.max(0, Math.min(requested, groups.length));
  const aborted = () => options.signal?.aborted === true;
  try {
    if (groups.length > 0 && workers === 0) {
      for (const indexes of groups) {
        if (aborted()) break;
        const taskStarted = performance.now();
        const computed = await computeTaskRows(
          inputs,
          indexes.map((i) => configs[i]),
          indexes.map((i) => keys[i]),
          rowOptions,
        );
        accept(indexes, computed, performance.now() - taskStarted);
      }
    } else if (groups.length > 0) {
      await runOnWorkers();
    }
  } finally {
    progress.done();
  }

  async function runOnWorkers(): Promise<void> {
    const pool = await workerPool(workers, options.keepWorkers !== false);
    const shared = encodeInputs(inputs);
    const inputsId = `${corpusHash}:${queriesHash}`;
    // One signal for the caller's Ctrl-C and for "a task failed, cancel the rest".
    const cancel = new AbortController();
    setMaxListeners(groups.length + 10, cancel.signal); // piscina listens once per queued task
    const onAbort = () => cancel.abort();
    options.signal?.addEventListener("abort", onAbort);
    if (aborted()) cancel.abort();
    let firstError: unknown;
    try {
      await Promise.all(
        groups.map(async (indexes) => {
          const task: RowTask = {
            inputsId,
            inputs: shared,
            configs: indexes.map((i) => configs[i]),
            keys: indexes.map((i) => keys[i]),
            options: rowOptions,
          };
          try {
            const result = (await pool.run(task, { signal: cancel.signal })) as RowTaskResult;
            if ("error" in result) {
              throw result.error.seamlab
                ? new SeamlabError(result.error.message)
                : new Error(result.error.message + "\n" + result.error.stack);
            }
            accept(indexes, result.rows, result.ms);
          } catch (error) {
            if (!cancel.signal.aborted) {
              firstError = error;
              cancel.abort(); // one failing config fails the grid
            }
          }
        }),
      );
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      if (options.keepWorkers === false) await pool.destroy();
    }
    if (firstError !== undefined && !aborted()) throw firstError;
  }

  const interrupted = aborted() && rows.some((row) => row === undefined);
  // Duplicates of a computed config.
  keys.forEach((key, i) => {
    if (rows[i] === undefined) {
      const first = firstIndexOfKey.get(key);
      if (first !== undefined && rows[first] !== undefined) rows[i] = rows[first];
    }
  });
  const finished = rows.filter((row): row is GridRow => row !== undefined);
  return {
    rows: withCosts(finished, options.cost),
    total: configs.length,
    cached,
    computed: computedRows,
    interrupted,
    elapsedMs: Date.now() - started,
    taskTimes,
    workers: groups.length === 0 ? 0 : workers,
  };
}
