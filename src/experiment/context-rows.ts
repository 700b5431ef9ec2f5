import type { Chunk, Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { evaluateQueries, type EvaluationOptions, type QueryOutcome } from "../retrieval/evaluate";
import { evaluateWithinBudget } from "../retrieval/context-budget";
import type { Retriever } from "../retrieval/types";
import type { RetrievalSetting } from "./grid";

/**
 * The per-query outcomes of one retrieval setting over one split: the top k (plain hit@k), or the top chunks that
 * fit the setting's context budget. `tokensOf` counts a chunk's tokens (the prompt's cost, and a budget in tokens).
 */
export async function contextOutcomes(
  chunks: readonly Chunk[],
  queries: readonly Query[],
  retriever: Retriever,
  setting: RetrievalSetting,
  options: EvaluationOptions & { tokensOf: (index: number) => number },
): Promise<QueryOutcome[]> {
  const budget = setting.contextBudget;
  if (budget === undefined) return evaluateQueries(chunks, queries, retriever, options);
  if ((setting.reranker ?? "none") !== "none") {
    throw new SeamlabError(
      `--context-budget with --rerank ${setting.reranker}: a budget sets how many chunks reach the prompt, so it ` +
        `does not combine with a reranker's cut yet; drop one of them.`,
    );
  }
  const lengthOf = budget.unit === "tokens" ? options.tokensOf : (index: number) => chunks[index].text.length;
  return evaluateWithinBudget(chunks, queries, retriever, { ...options, budget, lengthOf });
}
