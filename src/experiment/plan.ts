import { checkRerankerName } from "../retrieval/rerank";
import { helperThreadOf, validateSplitterConfig } from "../splitters/registry";
import { cacheKey, hashDocs, hashQueries, sha256 } from "./cache";
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

/**
 * The inputs' identity (corpus and query hashes), shared by every key of one run and by the worker threads. A
 * document sample (rows measured on some documents only) is part of the corpus's identity; without one the hash
 * is the corpus's alone, as before samples existed.
 */
export function inputsId(inputs: SweepInputs): { corpusHash: string; queriesHash: string } {
  const corpusHash = hashDocs(inputs.docs);
  return {
    corpusHash: inputs.sample ? `${corpusHash}+sample:${sha256(JSON.stringify(inputs.sample))}` : corpusHash,
    queriesHash: hashQueries(inputs.queries),
  };
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

/** Token windows (and splitters measuring in tokens) encode the whole corpus with js-tiktoken. */
function isTokenWindow(config: ExperimentConfig): boolean {
  return config.splitter.splitter === "tokens" || config.splitter.unit === "tokens";
}

/**
 * A rough relative cost of one config, for scheduling only (results never depend on it). Measured on
 * opentelemetry-docs (bench:workers, thread CPU per task): a character splitter's config takes about the same
 * whatever the splitter (LangChain's included), growing with the text that overlap repeats; a token window's
 * takes about 3.5 times as long, because it encodes the corpus with js-tiktoken.
 */
function estimatedCost(config: ExperimentConfig): number {
  const s = config.splitter;
  return (isTokenWindow(config) ? 3.5 : 1) * (1 + s.overlap / s.size);
}

/**
 * What a thread pays once before the first config of a family (in the units of `estimatedCost`): a token window's
 * tokenizer tables, or starting a helper thread that loads and warms up a splitting library (LangChain's bridge,
 * the library worker). Measured on opentelemetry-docs (bench:workers): each is about one and a half character
 * configs of CPU, most of it the helper isolate's start and its optimising compiler.
 */
const FAMILY_WARM_UP = 1.5;

/**
 * Configs that share a per-thread warm-up (FAMILY_WARM_UP): token windows by encoding, and splitters running a library
 * in a helper thread, by helper. Undefined: the config needs nothing per thread beyond the shared code.
 */
function familyOf(config: ExperimentConfig): string | undefined {
  if (isTokenWindow(config)) return `tokens:${config.splitter.encoding ?? "cl100k_base"}`;
  const helper = helperThreadOf(config.splitter.splitter);
  return helper === undefined ? undefined : `helper:${helper}`;
}

/**
 * Bundles the splitter groups of one family into as few tasks as keep each under a fair share of the grid's work
 * (`fairShare`), and never more tasks than threads: every bundle pays the family's warm-up again in its thread, so
 * a grid with plenty of other work keeps them in one task (one tokenizer warm-up), while a sweep of one family is
 * split across the threads instead of running on one. Groups go to the lightest
 * bundle, heaviest first.
 */
function bundleFamily(groups: number[][], cost: (indexes: number[]) => number, workers: number, fairShare: number) {
  const most = Math.max(1, Math.min(workers, groups.length));
  const heaviestFirst = [...groups].sort((a, b) => cost(b) - cost(a) || a[0] - b[0]);
  for (let count = 1; ; count++) {
    const bundles = Array.from({ length: count }, () => ({ indexes: [] as number[], cost: FAMILY_WARM_UP }));
    for (const group of heaviestFirst) {
      const lightest = bundles.reduce((a, b) => (b.cost < a.cost ? b : a));
      lightest.indexes.push(...group);
      lightest.cost += cost(group);
    }
    if (count === most || Math.max(...bundles.map((b) => b.cost)) <= fairShare)
      return bundles.map((b) => [...b.indexes].sort((x, y) => x - y));
  }
}

/**
 * Plans a run: looks each key up (`cached` returns a stored row or undefined), sets aside repeated keys, and
 * groups the rest into tasks. Configs sharing a splitter config are one task (split and indexed once); token
 * windows of one encoding are bundled too (see `bundleFamily`), into as many tasks as `workers` threads need to
 * share the work evenly, and so are splitters running one helper thread (LangChain's) when they fit one fair share
 * of a pool's work. Heaviest tasks come first (longest processing time first), so a pool does not end on one long
 * task while the other threads idle.
 */
export function planGrid(
  configs: ExperimentConfig[],
  keys: string[],
  cached: (key: string) => GridRow | undefined,
  workers = 1,
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

  const taskCost = (indexes: number[]) => indexes.reduce((sum, i) => sum + estimatedCost(configs[i]), 0);
  const tasks: number[][] = [];
  const families = new Map<string, number[][]>(); // family -> splitter groups
  for (const indexes of missing.values()) {
    const family = familyOf(configs[indexes[0]]);
    if (family === undefined) tasks.push(indexes);
    else {
      if (!families.has(family)) families.set(family, []);
      (families.get(family) as number[][]).push(indexes);
    }
  }
  const total = [...missing.values()].reduce((sum, indexes) => sum + taskCost(indexes), 0);
  const fairShare = (total + FAMILY_WARM_UP * families.size) / Math.max(1, workers);
  for (const [family, groups] of families) {
    if (family.startsWith("tokens:")) tasks.push(...bundleFamily(groups, taskCost, workers, fairShare));
    // A helper family is one task only on a pool of several threads (one thread starts one helper anyway) and only
    // when it fits a fair share: otherwise its configs stay separate tasks, each row cached as soon as it is done (an
    // interrupted LangChain sweep keeps its finished configs).
    else if (workers >= 2 && FAMILY_WARM_UP + groups.reduce((sum, g) => sum + taskCost(g), 0) <= fairShare)
      tasks.push(...bundleFamily(groups, taskCost, 1, fairShare));
    else tasks.push(...groups);
  }
  const ordered = tasks.sort((a, b) => taskCost(b) - taskCost(a) || a[0] - b[0]);
  return { configs, keys, rows, cached: hits, duplicateOf, tasks: ordered };
}
