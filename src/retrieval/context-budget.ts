import type { Chunk, Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { scoreRanked, type EvaluationOptions, type QueryOutcome } from "./evaluate";
import type { RankedChunk, Retriever } from "./types";

/**
 * An equal context budget: what a prompt may hold, so that chunk sizes are compared on the text they hand the LLM
 * rather than on a count of chunks (k chunks of 2000 characters carry twice the text of k chunks of 1000).
 *
 * The rule: the retrieved context is the top chunks taken in rank order until adding the next would exceed the
 * budget (a prefix of the ranking; a chunk that does not fit ends the context, no lower-ranked shorter chunk is
 * slipped in after it). Each chunk costs its own length, not its nominal size: a prompt builder pays for the text it
 * pastes, and a splitter's chunks are often shorter than the size (a document's last chunk, a short file). Text that
 * overlapping chunks share is pasted, and paid for, once per chunk.
 */

export type BudgetUnit = "chars" | "tokens";

export interface ContextBudget {
  /** Characters or tokens of retrieved text per query. */
  amount: number;
  unit: BudgetUnit;
}

/** The flag a budget is read from, named in every error about one. */
export const CONTEXT_BUDGET_FLAG = "--context-budget";

/**
 * Reads `--context-budget`: `5000` (in `unit`, the unit the chunk sizes are given in, so a budget reads like a
 * size), `5000c` / `5000chars`, `1200t` / `1200tokens`; `off` (or `none`) turns the budget off, giving plain
 * hit@k. Returns null for off.
 */
export function parseContextBudget(text: string, unit: BudgetUnit): ContextBudget | null {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === "off" || trimmed === "none") return null;
  const match = /^(\d+)\s*(c|chars?|t|tokens?)?$/.exec(trimmed.replace(/[,_]/g, ""));
  if (!match || Number(match[1]) < 1) {
    throw new SeamlabError(
      `${CONTEXT_BUDGET_FLAG} ${text}: give a whole number of characters or tokens per query, e.g. 5000 (in the ` +
        `sizes' unit), 5000c, 1200t, or off for plain hit@k.`,
    );
  }
  const suffix = match[2];
  return {
    amount: Number(match[1]),
    unit: suffix === undefined ? unit : suffix.startsWith("t") ? "tokens" : "chars",
  };
}

/** "5,000 chars" / "1,200 tokens". */
export function contextBudgetText(budget: ContextBudget): string {
  return `${budget.amount.toLocaleString("en-US")} ${budget.unit}`;
}

/**
 * How many of the ranked items fit: the longest prefix whose lengths sum to at most `budget`. Stops at the first
 * item that would exceed it, so the context is always the ranking's top, in order.
 */
export function takeWithinBudget(lengths: readonly number[], budget: number): number {
  let used = 0;
  for (let i = 0; i < lengths.length; i++) {
    if (used + lengths[i] > budget) return i;
    used += lengths[i];
  }
  return lengths.length;
}

/**
 * The budget of a comparison across sizes when none is given: the median size (the lower middle one of an even
 * count, so it is a size that was swept) times k, the prompt that size already fills at plain hit@k; at least the
 * largest size, so every size can put one whole chunk in. For 500,1000,2000 at k=5: 5000, i.e. 500 @ 10 chunks,
 * 1000 @ 5, 2000 @ 2 — the comparison the plain hit@k table hides.
 */
export function defaultContextBudget(sizes: readonly number[], k: number, unit: BudgetUnit): ContextBudget {
  if (sizes.length === 0) throw new SeamlabError(`${CONTEXT_BUDGET_FLAG}: no sizes to derive a default budget from.`);
  const sorted = [...sizes].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return { amount: Math.max(median * k, sorted[sorted.length - 1]), unit };
}

/**
 * A rough characters-per-token rate (English prose under cl100k), used only to check a budget in tokens against
 * sizes in characters (or the reverse) before any work; the run itself counts real tokens.
 */
export const CHARS_PER_TOKEN_ESTIMATE = 4;

/**
 * Refuses a budget that cannot hold one chunk of the largest size (that size would retrieve nothing), naming the
 * flag and the smallest budget that works. Sizes are in `sizeUnit`; a budget in the other unit is compared at
 * CHARS_PER_TOKEN_ESTIMATE characters per token.
 */
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
 * The ranking of every query cut to what fits (`fits(ranked, query)`: how many of the ranking's top fit the budget;
 * chunk indexes, best first; `query` is the position of the query in `texts`). The retriever is asked for a depth
 * that should fill the budget (`initialDepth`) and asked again twice as deep for the queries whose whole answer still
 * fits, until the budget is full, the retriever has nothing more, or every chunk was ranked.
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
 * A first search depth for a budget: the budget over the mean chunk length (characters, or tokens at the rough rate:
 * counting every chunk's tokens would cost more than a second, deeper search for the few queries that need one),
 * divided by `perChunk` when each chunk brings more text (a neighbour window), plus two.
 */
export function initialBudgetDepth(chunks: readonly Chunk[], budget: ContextBudget, perChunk = 1): number {
  let chars = 0;
  for (const chunk of chunks) chars += chunk.text.length;
  const perUnit = budget.unit === "tokens" ? CHARS_PER_TOKEN_ESTIMATE : 1;
  const meanLength = chunks.length === 0 ? 1 : Math.max(1, (perChunk * chars) / chunks.length / perUnit);
  return Math.ceil(budget.amount / meanLength) + 2;
}

export interface BudgetEvaluationOptions extends EvaluationOptions {
  budget: ContextBudget;
  /** Length of chunk `index` in the budget's unit. */
  lengthOf: (index: number) => number;
}

/**
 * Scores every query on the context its budget allows (see `rankWithinBudget`), with the hit rule of plain hit@k
 * (`scoreRanked`: some gold span lies fully inside some retrieved chunk).
 */
export async function evaluateWithinBudget(
  chunks: readonly Chunk[],
  queries: readonly Query[],
  retriever: Retriever,
  options: BudgetEvaluationOptions,
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
