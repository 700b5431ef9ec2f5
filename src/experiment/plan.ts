import { checkRerankerName } from "../retrieval/rerank";
import { helperThreadOf, validateSplitterConfig } from "../splitters/registry";
import { cacheKey, hashDocs, hashQueries, sha256 } from "./cache";
import { resultsVersion } from "./fingerprint";
import { expandGrid, groupBy, normalizeConfig, splitterKey, type ExperimentConfig, type GridSpec } from "./grid";
import type { GridRow, SweepInputs } from "./rows";

/** What a grid run has to do, decided before any thread starts: cached rows, repeated keys, tasks heaviest first. */
export type GridPlan = ReturnType<typeof planGrid>;

/** The grid's configs, normalised and checked, so that a typo fails before any corpus is loaded. */
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

/** The inputs' identity (corpus and query hashes); a document sample is part of the corpus's. */
export function inputsId(inputs: SweepInputs) {
  const corpusHash = hashDocs(inputs.docs);
  return {
    corpusHash: inputs.sample ? `${corpusHash}+sample:${sha256(JSON.stringify(inputs.sample))}` : corpusHash,
    queriesHash: hashQueries(inputs.queries),
  };
}

/** Cache keys of the configs: corpus, queries, config, and the version and code hash behind the numbers. */
export function gridKeys(id: ReturnType<typeof inputsId>, configs: readonly ExperimentConfig[]): string[] {
  const version = resultsVersion();
  return configs.map((config) => cacheKey({ ...id, config, version }));
}

/** Token windows (and splitters measuring in tokens) encode the whole corpus with js-tiktoken. */
function isTokenWindow(config: ExperimentConfig): boolean {
  return config.splitter.splitter === "tokens" || config.splitter.unit === "tokens";
}

/**
 * A rough relative cost of one config, for scheduling only. On opentelemetry-docs (bench:workers) a character
 * splitter's config costs about the same whatever the splitter; a token window's about 3.5 times as much.
 */
function estimatedCost(config: ExperimentConfig): number {
  const s = config.splitter;
  return (isTokenWindow(config) ? 3.5 : 1) * (1 + s.overlap / s.size);
}

/**
 * What a thread pays once before a family's first config (tokenizer tables, or the library helper thread), in units
 * of `estimatedCost`: about 1.5 character configs of CPU on opentelemetry-docs (bench:workers).
 */
const FAMILY_WARM_UP = 1.5;

/** Configs that share a per-thread warm-up: token windows by encoding; LangChain and the libraries share one worker. */
function familyOf(config: ExperimentConfig): string | undefined {
  if (isTokenWindow(config)) return `tokens:${config.splitter.encoding ?? "cl100k_base"}`;
  return helperThreadOf(config.splitter.splitter) === undefined ? undefined : "helper";
}

/**
 * Bundles one family's splitter groups into as few tasks as keep each under `fairShare` (each bundle pays the
 * warm-up again), never more than threads; groups go to the lightest bundle, heaviest first.
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
 * Plans a run: cache lookups, repeated keys (filled from their first config afterwards) set aside, the rest grouped
 * into tasks (one per splitter config, families bundled), heaviest first so a pool does not end on one long task.
 */
export function planGrid(
  configs: ExperimentConfig[],
  keys: string[],
  cached: (key: string) => GridRow | undefined,
  workers = 1,
) {
  const rows: (GridRow | undefined)[] = configs.map(() => undefined);
  const toCompute: number[] = [];
  const duplicateOf = new Map<number, number>();
  const firstIndexOfKey = new Map<string, number>();
  let hits = 0;
  keys.forEach((key, i) => {
    const hit = cached(key);
    const first = firstIndexOfKey.get(key);
    if (hit && hit.key === key) {
      rows[i] = hit;
      hits++;
    } else if (first !== undefined) duplicateOf.set(i, first);
    else {
      firstIndexOfKey.set(key, i);
      toCompute.push(i);
    }
  });
  const missing = [...groupBy(toCompute, (i) => splitterKey(configs[i])).values()];

  const taskCost = (indexes: number[]) => indexes.reduce((sum, i) => sum + estimatedCost(configs[i]), 0);
  const families = groupBy(missing, (indexes) => familyOf(configs[indexes[0]]) ?? "");
  const tasks = families.get("") ?? []; // one task per splitter config outside any family
  families.delete("");
  const total = missing.reduce((sum, indexes) => sum + taskCost(indexes), 0);
  const fairShare = (total + FAMILY_WARM_UP * families.size) / Math.max(1, workers);
  for (const [family, groups] of families) {
    if (family.startsWith("tokens:")) tasks.push(...bundleFamily(groups, taskCost, workers, fairShare));
    // A helper family is one task only on a pool of several threads and when it fits a fair share: otherwise each
    // row is cached as soon as it is done (an interrupted LangChain sweep keeps its finished configs).
    else if (workers >= 2 && FAMILY_WARM_UP + groups.reduce((sum, g) => sum + taskCost(g), 0) <= fairShare)
      tasks.push(...bundleFamily(groups, taskCost, 1, fairShare));
    else tasks.push(...groups);
  }
  const ordered = tasks.sort((a, b) => taskCost(b) - taskCost(a) || a[0] - b[0]);
  return { configs, keys, rows, cached: hits, duplicateOf, tasks: ordered };
}
