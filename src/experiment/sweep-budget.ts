import { SeamlabError } from "../core/errors";
import {
  checkContextBudget,
  CONTEXT_BUDGET_FLAG,
  defaultContextBudget,
  type ContextBudget,
} from "../retrieval/context-budget";
import type { ExperimentConfig } from "./grid";
import type { CostedRow } from "./run";
import { canonicalJson } from "../core/canonical-json";

/**
 * The context budget of a sweep (see retrieval/context-budget): comparing sizes by hit@k favours the largest, so a
 * sweep over several sizes is judged at an equal budget unless told otherwise; its rows at plain hit@k are run too
 * (same split, same index) to show what the budget changes.
 */

/** What a sweep spec says about its budget. */
export interface BudgetSpec {
  sizes?: number[];
  size: number;
  unit?: "chars" | "tokens";
  ks?: number[];
  finalK?: number;
  reranker?: string;
  /** A budget; null turns it off (plain hit@k); undefined: the default when several sizes are swept. */
  contextBudget?: ContextBudget | null;
  /** Neighbours and parents to compare with overlap (sweep-expand): they need a budget, so they ask for the default. */
  expand?: number[];
  parents?: unknown[];
}

/**
 * The sweep's budget, or undefined for plain hit@k. Given: checked (one depth, no reranker, at least one chunk of
 * the largest size). Not given: with several sizes, one depth and no reranker, `defaultContextBudget` (the median
 * size × k); otherwise none.
 */
export function sweepContextBudget(spec: BudgetSpec): ContextBudget | undefined {
  const sizes = spec.sizes ?? [spec.size];
  const ks = spec.ks ?? [5];
  const reranked = (spec.reranker ?? "none") !== "none" || (spec.finalK !== undefined && spec.finalK < ks[0]);
  const unit = spec.unit ?? "chars";
  if (spec.contextBudget === null) return undefined;
  if (spec.contextBudget === undefined) {
    const levers = (spec.expand ?? []).some((n) => n > 0) || (spec.parents ?? []).length > 0;
    return (sizes.length > 1 || levers) && ks.length === 1 && !reranked
      ? defaultContextBudget(sizes, ks[0], unit)
      : undefined;
  }
  if (ks.length > 1 || reranked) {
    throw new SeamlabError(
      `${CONTEXT_BUDGET_FLAG} sets how many chunks reach the prompt, so it takes the place of several --ks, ` +
        `--final-k and --rerank: give one of them, not both.`,
    );
  }
  checkContextBudget(spec.contextBudget, sizes, unit);
  return spec.contextBudget;
}

/** Each config at plain hit@k, then each again at the budget (same split: computed together, one index). */
export function withContextBudget(configs: readonly ExperimentConfig[], budget: ContextBudget): ExperimentConfig[] {
  return [
    ...configs,
    ...configs.map((config) => ({ ...config, retrieval: { ...config.retrieval, contextBudget: budget } })),
  ];
}

/** The rows a sweep judges: those at its budget when it has one, else all (levers are judged apart: sweep-expand). */
export function judgedRows(rows: readonly CostedRow[], budget: ContextBudget | undefined): CostedRow[] {
  return budget === undefined ? [...rows] : rows.filter((row) => row.config.retrieval.contextBudget !== undefined);
}

/** For each row at a budget, the hit rate of the same config at plain hit@k (null when it was not run). */
export function plainHitRates(judged: readonly CostedRow[], all: readonly CostedRow[]): (number | null)[] {
  const plain = new Map<string, number>();
  for (const row of all) {
    if (row.config.retrieval.contextBudget === undefined) plain.set(canonicalJson(row.config), row.retrieval.hitRate);
  }
  return judged.map((row) => {
    const { contextBudget: _budget, ...retrieval } = row.config.retrieval;
    return plain.get(canonicalJson({ ...row.config, retrieval })) ?? null;
  });
}

/** What a config costs: the index (vectors and their bytes) and the prompt (mean tokens and characters per query). */
export interface ConfigCosts {
  vectors: number;
  storageBytes: number;
  promptTokens: number | null;
  promptChars: number;
}

export function configCosts(row: CostedRow): ConfigCosts {
  return {
    vectors: row.seams.chunks,
    storageBytes: row.cost.storageBytes,
    promptTokens: row.retrieval.meanContextTokens ?? null,
    promptChars: row.retrieval.meanContextChars,
  };
}
