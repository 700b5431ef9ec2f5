import { totalChars, type Chunk, type Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { scoreRanked, type EvaluationOptions, type QueryOutcome } from "./evaluate";
import type { RankedChunk, Retriever } from "./types";

/**
 * An equal context budget compares chunk sizes on the text they hand the LLM: the ranking's longest prefix that fits,
 * each chunk costing its own length (shared text paid per chunk), not its nominal size.
 */
export type BudgetUnit = "chars" | "tokens";

export type ContextBudget = { amount: number; unit: BudgetUnit };

export const CONTEXT_BUDGET_FLAG = "--context-budget";

/** Reads `--context-budget`: `5000` (in the sizes' `unit`), `5000c`, `1200t`/`1200tokens`; null for off/none. */
export function parseContextBudget(text: string, unit: BudgetUnit): ContextBudget | null {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === "off" || trimmed === "none") return null;
  const match = /^(\d+)\s*(c|chars?|t|tokens?)?$/.exec(trimmed.replace(/[,_]/g, ""));
  if (!match || Number(match[1]) < 1)
    throw new SeamlabError(
      `${CONTEXT_BUDGET_FLAG} ${text}: give a whole number of characters or tokens per query, e.g. 5000 (in the ` +
        `sizes' unit), 5000c, 1200t, or off for plain hit@k.`,
    );
  const suffix = match[2];
  return { amount: Number(match[1]), unit: suffix === undefined ? unit : suffix.startsWith("t") ? "tokens" : "chars" };
}

export function contextBudgetText(budget: ContextBudget): string {
  return `${budget.amount.toLocaleString("en-US")} ${budget.unit}`;
}

/** How many of the ranked items fit: the longest prefix whose lengths sum to at most `budget`. */
export function takeWithinBudget(lengths: readonly number[], budget: number): number {
  let used = 0;
  for (let i = 0; i < lengths.length; i++) {
    if (used + lengths[i] > budget) return i;
    used += lengths[i];
  }
  return lengths.length;
}

/** The median size (lower middle) times k, what plain hit@k fills, at least the largest (500,1000,2000 at k=5: 5000). */
export function defaultContextBudget(sizes: readonly number[], k: number, unit: BudgetUnit): ContextBudget {
  if (sizes.length === 0) throw new SeamlabError(`${CONTEXT_BUDGET_FLAG}: no sizes to derive a default budget from.`);
  const sorted = [...sizes].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return { amount: Math.max(median * k, sorted[sorted.length - 1]), unit };
}

/** English prose under cl100k, roughly: only to check a budget against sizes in the other unit before any work. */
export const CHARS_PER_TOKEN_ESTIMATE = 4;

/** Refuses a budget below one chunk of the largest size (in `sizeUnit`), naming the smallest budget that works. */
export function checkContextBudget(budget: ContextBudget, sizes: readonly number[], sizeUnit: BudgetUnit): void {
  const largest = Math.max(...sizes);
  const inBudgetUnit =
    budget.unit === sizeUnit
      ? largest
      : budget.unit === "tokens"
        ? Math.ceil(largest / CHARS_PER_TOKEN_ESTIMATE)
        : largest * CHARS_PER_TOKEN_ESTIMATE;
  if (budget.amount < inBudgetUnit) {
    const estimate = budget.unit === sizeUnit ? "" : ` (about, at ${CHARS_PER_TOKEN_ESTIMATE} characters a token)`;
    throw new SeamlabError(
      `${CONTEXT_BUDGET_FLAG} ${contextBudgetText(budget)} is below one chunk of the largest size, ${largest} ` +
        `${sizeUnit}${estimate}: that size could put nothing in the prompt. Give at least ` +
        `${CONTEXT_BUDGET_FLAG} ${inBudgetUnit}${budget.unit === "tokens" ? "t" : "c"}, or drop ${largest} from the sizes.`,
    );
  }
}

/**
 * Every query's ranking cut to what `fits` (how many of its top fit; `query` is its position in `texts`). Queries
 * whose whole answer still fits are asked again twice as deep, until the budget is full or nothing more comes.
 */
export async function rankWithinBudget(
  retriever: Retriever,
  texts: readonly string[],
  fits: (ranked: number[], query: number) => number,
  chunkCount: number,
  initialDepth: number,
): Promise<number[][]> {
  const out: number[][] = new Array(texts.length);
  let pending = texts.map((_, i) => i);
  let depth = Math.max(1, Math.min(chunkCount, initialDepth));
  while (pending.length > 0) {
    const asked = pending.map((i) => texts[i]);
    const found: RankedChunk[][] = retriever.searchMany
      ? await retriever.searchMany(asked, depth)
      : await Promise.all(asked.map(async (text) => retriever.search(text, depth)));
    const next: number[] = [];
    pending.forEach((position, j) => {
      const ranked = found[j].slice(0, depth).map((r) => r.index);
      const take = fits(ranked, position);
      const exhausted = ranked.length < depth || depth >= chunkCount;
      if (take < ranked.length || exhausted) out[position] = ranked.slice(0, take);
      else next.push(position);
    });
    pending = next;
    depth = Math.min(chunkCount, depth * 2);
  }
  return out;
}

/**
 * A first search depth: the budget over the mean chunk length (tokens at the rough rate: counting them all costs more
 * than a deeper second search), over `perChunk` when each brings more text (a window), plus two.
 */
export function initialBudgetDepth(chunks: readonly Chunk[], budget: ContextBudget, perChunk = 1): number {
  const chars = totalChars(chunks);
  const perUnit = budget.unit === "tokens" ? CHARS_PER_TOKEN_ESTIMATE : 1;
  const meanLength = chunks.length === 0 ? 1 : Math.max(1, (perChunk * chars) / chunks.length / perUnit);
  return Math.ceil(budget.amount / meanLength) + 2;
}

/** Scores every query on the context its budget allows (`lengthOf`: in its unit), by plain hit@k's rule. */
export async function evaluateWithinBudget(
  chunks: readonly Chunk[],
  queries: readonly Query[],
  retriever: Retriever,
  options: EvaluationOptions & { budget: ContextBudget; lengthOf: (index: number) => number },
): Promise<QueryOutcome[]> {
  const ranked = await rankWithinBudget(
    retriever,
    queries.map((q) => q.text),
    (top) => takeWithinBudget(top.map(options.lengthOf), options.budget.amount),
    chunks.length,
    initialBudgetDepth(chunks, options.budget),
  );
  return queries.map((query, i) => scoreRanked(chunks, query, ranked[i], options));
}
