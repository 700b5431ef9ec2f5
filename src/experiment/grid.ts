import { SeamlabError } from "../core/errors";
import type { SplitterConfig, Unit } from "../splitters/config";
import { canonicalJson } from "../core/canonical-json";
import type { ContextBudget } from "../retrieval/context-budget";
import type { ParentSetting } from "../retrieval/expand";

// Configs are plain JSON: they are cache keys and cross thread boundaries.

/** How chunks are retrieved for one row: first-stage depth `k`, then a reranker keeps `finalK` (default k). */
export interface RetrievalSetting {
  k: number;
  finalK?: number;
  /** Default "none". */
  reranker?: string;
  rerankerOptions?: Record<string, unknown>;
  /** Default "bm25". */
  retriever?: string;
  retrieverSettings?: Record<string, unknown>;
  /** The context is the top chunks up to this budget instead of the top k. */
  contextBudget?: ContextBudget;
  /** Neighbours pasted on each side of each retrieved chunk (retrieval/expand); needs a budget. */
  expand?: number;
  /** Each retrieved chunk is pasted as its parent: its `##` section or an N-unit block. */
  parents?: ParentSetting;
}

export interface ExperimentConfig {
  splitter: SplitterConfig;
  retrieval: RetrievalSetting;
}

export interface GridSpec {
  splitters: string[];
  sizes: number[];
  overlaps: number[];
  units?: Unit[];
  encoding?: string;
  /** Default [5]. */
  ks?: number[];
  finalK?: number;
  /** Default ["none"]. */
  rerankers?: string[];
  rerankerOptions?: Record<string, unknown>;
  retriever?: string;
  retrieverSettings?: Record<string, unknown>;
}

/** Fills defaults so that equal configs have equal cache keys however they were written. */
export function normalizeConfig(config: ExperimentConfig): ExperimentConfig {
  const s = config.splitter;
  const r = config.retrieval;
  const splitter: SplitterConfig = { ...s, unit: s.unit ?? "chars" };
  if (splitter.unit === "tokens" && splitter.encoding === undefined) splitter.encoding = "cl100k_base";
  const retrieval: RetrievalSetting = {
    ...r,
    finalK: r.finalK ?? r.k,
    reranker: r.reranker ?? "none",
    retriever: r.retriever ?? "bm25",
  };
  if (!Number.isInteger(retrieval.k) || retrieval.k < 1)
    throw new SeamlabError(`retrieval k must be a whole number >= 1, got ${retrieval.k} (--ks).`);
  const finalK = retrieval.finalK as number;
  if (!Number.isInteger(finalK) || finalK < 1 || finalK > retrieval.k)
    throw new SeamlabError(
      `final k must be a whole number from 1 to the first-stage k (${retrieval.k}), got ${finalK} (--final-k).`,
    );
  return { splitter, retrieval };
}

/** The part of a config that decides the chunks: configs sharing it are split and indexed once. */
export function splitterKey(config: ExperimentConfig): string {
  return canonicalJson(config.splitter);
}

/** Items by key, keys in first-seen order. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Configs in a fixed order: splitter, size, unit, overlap, k, reranker (the order the lists give). */
export function expandGrid(spec: GridSpec): ExperimentConfig[] {
  for (const [name, list] of Object.entries({ splitters: spec.splitters, sizes: spec.sizes, overlaps: spec.overlaps }))
    if (!list || list.length === 0) throw new SeamlabError(`grid: ${name} must list at least one value.`);
  const units = spec.units ?? ["chars"];
  const ks = spec.ks ?? [5];
  const rerankers = spec.rerankers ?? ["none"];
  const configs: ExperimentConfig[] = [];
  for (const splitter of spec.splitters)
    for (const size of spec.sizes)
      for (const unit of units)
        for (const overlap of spec.overlaps) {
          if (overlap >= size)
            throw new SeamlabError(
              `grid: overlap ${overlap} is not smaller than size ${size}; drop it from --overlaps or raise --size.`,
            );
          for (const k of ks)
            for (const reranker of rerankers) {
              const splitterConfig: SplitterConfig = { splitter, size, overlap, unit };
              if (spec.encoding !== undefined && unit === "tokens") splitterConfig.encoding = spec.encoding;
              const retrieval: RetrievalSetting = {
                k,
                finalK: spec.finalK === undefined ? k : Math.min(spec.finalK, k),
                reranker,
                rerankerOptions: reranker === "none" ? undefined : spec.rerankerOptions,
                retriever: spec.retriever,
                retrieverSettings: spec.retrieverSettings,
              };
              configs.push(normalizeConfig({ splitter: splitterConfig, retrieval }));
            }
        }
  return configs;
}

/** A short human label: "langchain 1000/200 chars, k=10 -> mmr@3". */
export function describeConfig(config: ExperimentConfig): string {
  const s = config.splitter;
  const r = config.retrieval;
  const rerank =
    r.reranker && r.reranker !== "none"
      ? ` -> ${r.reranker}@${r.finalK}`
      : r.finalK !== undefined && r.finalK !== r.k
        ? `@${r.finalK}`
        : "";
  return `${s.splitter} ${s.size}/${s.overlap} ${s.unit ?? "chars"}, k=${r.k}${rerank}`;
}
