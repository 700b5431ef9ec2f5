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

// Comparing sizes by hit@k favours the largest, so a sweep over several sizes is judged at an equal context budget
// unless told otherwise; its plain hit@k rows run too (same split, same index) to show what the budget changes.

interface BudgetSpec {
  sizes?: number[];
  size: number;
  unit?: "chars" | "tokens";
  ks?: number[];
  finalK?: number;
  reranker?: string;
  contextBudget?: ContextBudget | null;
  expand?: number[];
  parents?: unknown[];
}

/** True when the sweep compares overlap with neighbours or parents (sweep-expand), which need a budget. */
export function hasLevers(spec: { expand?: number[]; parents?: unknown[] }): boolean {
  return (spec.expand ?? []).some((n) => n > 0) || (spec.parents ?? []).length > 0;
}

/**
 * The sweep's budget, or undefined for plain hit@k. Given: checked. Not given (undefined): with several sizes or
 * levers, one depth and no reranker, `defaultContextBudget` (the median size × k); null: none.
 */
export function sweepContextBudget(spec: BudgetSpec): ContextBudget | undefined {
  const sizes = spec.sizes ?? [spec.size];
  const ks = spec.ks ?? [5];
  const reranked = (spec.reranker ?? "none") !== "none" || (spec.finalK !== undefined && spec.finalK < ks[0]);
  const unit = spec.unit ?? "chars";
  if (spec.contextBudget === null) return undefined;
  if (spec.contextBudget === undefined) {
    return (sizes.length > 1 || hasLevers(spec)) && ks.length === 1 && !reranked
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

/** The rows a sweep judges: those at its budget when it has one, else all. */
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

/** What a config costs: the index and the prompt (mean tokens and characters per query). */
export function configCosts(row: CostedRow) {
  return {
    vectors: row.seams.chunks,
    storageBytes: row.cost.storageBytes,
    promptTokens: row.retrieval.meanContextTokens ?? null,
    promptChars: row.retrieval.meanContextChars,
  };
}
