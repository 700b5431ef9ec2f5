import { checkRerankerName } from "../retrieval/rerank";
import { validateSplitterConfig } from "../splitters/registry";
import { cacheKey, hashDocs, hashQueries } from "./cache";
import { codeFingerprint } from "./fingerprint";
import { expandGrid, normalizeConfig, splitterKey, type ExperimentConfig, type GridSpec } from "./grid";
import { seamlabVersion } from "../core/project";
import type { GridRow, SweepInputs } from "./rows";

/**
 * What a grid run has to do, decided before any thread starts: which rows the cache already holds, which configs
 * repeat another's key, and how the rest is bundled into tasks and ordered.
 */
export interface GridPlan {
  configs: ExperimentConfig[];
  /** Cache key of each config (same order). */
  keys: string[];
  /** Rows read from the cache, by config index; undefined where the row must be computed. */
  rows: (GridRow | undefined)[];
  /** Configs answered from the cache. */
  cached: number;
  /** Config index -> earlier config index with the same key (still to compute), filled from it afterwards. */
  duplicateOf: Map<number, number>;
  /** Config indexes to compute, one array per task, heaviest task first. */
  tasks: number[][];
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

/** The inputs' identity (corpus and query hashes), shared by every key of one run and by the worker threads. */
export function inputsId(inputs: SweepInputs): { corpusHash: string; queriesHash: string } {
  return { corpusHash: hashDocs(inputs.docs), queriesHash: hashQueries(inputs.queries) };
}

/** Cache keys of the configs: corpus, queries, config, and the version and code hash behind the numbers. */
export function gridKeys(
  id: { corpusHash: string; queriesHash: string },
  configs: readonly ExperimentConfig[],
): string[] {
  // The version and a hash of the code behind the numbers: a release or an edit never reads old rows.
  const version = `${seamlabVersion()}+${codeFingerprint()}`;
  return configs.map((config) => cacheKey({ ...id, config, version }));
}

/**
 * A rough relative cost of one config, for scheduling only (results never depend on it): token windows
 * encode the whole corpus with js-tiktoken, the real LangChain splitter is slower than the span-native ones,
 * and overlap multiplies the text that is indexed.
 */
function estimatedCost(config: ExperimentConfig): number {
  const s = config.splitter;
  const base = s.splitter === "tokens" || s.unit === "tokens" ? 4 : s.splitter === "langchain" ? 3 : 2;
  return base * (1 + s.overlap / s.size);
}

/**
 * Plans a run: looks each key up (`cached` returns a stored row or undefined), sets aside repeated keys, and
 * groups the rest into tasks. Configs sharing a splitter config are one task (split and indexed once); token
 * windows of one encoding are one task too, because each thread that tokenises the corpus pays the tokenizer's
 * per-piece warm-up (seconds) again. Heaviest tasks come first, so a pool does not end on one long task while
 * the other threads idle.
 */
export function planGrid(
  configs: ExperimentConfig[],
  keys: string[],
  cached: (key: string) => GridRow | undefined,
): GridPlan {
  const rows: (GridRow | undefined)[] = configs.map(() => undefined);
  const missing = new Map<string, number[]>(); // splitter key -> config indexes
  const duplicateOf = new Map<number, number>();
  const firstIndexOfKey = new Map<string, number>();
  let hits = 0;
  keys.forEach((key, i) => {
    const hit = cached(key);
    if (hit && hit.key === key) {
      rows[i] = hit;
      hits++;
      return;
    }
    const first = firstIndexOfKey.get(key);
    if (first !== undefined) {
      duplicateOf.set(i, first);
      return;
    }
    firstIndexOfKey.set(key, i);
    const group = splitterKey(configs[i]);
    if (!missing.has(group)) missing.set(group, []);
    (missing.get(group) as number[]).push(i);
  });

  const tasks = new Map<string, number[]>();
  for (const [id, indexes] of missing) {
    const s = configs[indexes[0]].splitter;
    const affinity = s.splitter === "tokens" || s.unit === "tokens" ? `tokens:${s.encoding ?? "cl100k_base"}` : id;
    if (!tasks.has(affinity)) tasks.set(affinity, []);
    (tasks.get(affinity) as number[]).push(...indexes);
  }
  const taskCost = (indexes: number[]) => indexes.reduce((sum, i) => sum + estimatedCost(configs[i]), 0);
  const ordered = [...tasks.values()].sort((a, b) => taskCost(b) - taskCost(a) || a[0] - b[0]);
  return { configs, keys, rows, cached: hits, duplicateOf, tasks: ordered };
}
