import type { Chunk, Doc, Query } from "../core/types";
import { initialBudgetDepth, rankWithinBudget, type ContextBudget } from "./context-budget";
import { scoreContext, type EvaluationOptions, type QueryOutcome } from "./evaluate";
import { piecesWithinBudget } from "./expand";
import type { Span } from "./metrics";
import type { Retriever } from "./types";

export interface PieceEvaluationOptions extends EvaluationOptions {
  budget: ContextBudget;
  /** The documents the chunks are spans of: a piece pastes their text. */
  docs: readonly Doc[];
  /** Per chunk index, what is pasted for it: its neighbour window or its parent (retrieval/expand). */
  pieces: readonly Span[];
  /** A piece already pasted costs nothing again (parents), or is pasted again (neighbour windows). */
  once: boolean;
  /** Tokens of a text: a budget in tokens, and the prompt tokens of each context. */
  countTokens: (text: string) => number;
  /** About how many chunks' worth of text a piece holds (2n + 1 for n neighbours), for the first search depth. */
  chunksPerPiece?: number;
}

/**
 * Scores every query on the pieces its retrieved chunks bring, in rank order, up to the budget
 * (`piecesWithinBudget`): a hit when some gold span lies fully inside some pasted piece, the rule of plain hit@k
 * with the piece in the chunk's place.
 */
export async function evaluateWithPieces(
  chunks: readonly Chunk[],
  queries: readonly Query[],
  retriever: Retriever,
  options: PieceEvaluationOptions,
): Promise<QueryOutcome[]> {
  const textOf = new Map(options.docs.map((doc) => [doc.id, doc.text]));
  const tokens = new Map<string, number>();
  const tokensOf = (piece: Span): number => {
    const key = `${piece.doc}\u0000${piece.start}\u0000${piece.end}`;
    let count = tokens.get(key);
    if (count === undefined) {
      count = options.countTokens((textOf.get(piece.doc) ?? "").slice(piece.start, piece.end));
      tokens.set(key, count);
    }
    return count;
  };
  const lengthOf = options.budget.unit === "tokens" ? tokensOf : (piece: Span) => piece.end - piece.start;
  const pieceOf = (index: number) => options.pieces[index];
  const cut = (top: readonly number[]) =>
    piecesWithinBudget(top, pieceOf, lengthOf, options.budget.amount, options.once);
  // Queries whose best chunk's piece alone is over the budget: their context is empty, a miss the budget made
  const overBudget = new Set<number>();
  const fits = (top: readonly number[], query: number) => {
    const taken = cut(top).taken;
    if (taken === 0 && top.length > 0) overBudget.add(query);
    else overBudget.delete(query);
    return taken;
  };
  const ranked = await rankWithinBudget(
    retriever,
    queries.map((q) => q.text),
    fits,
    chunks.length,
    initialBudgetDepth(chunks, options.budget, options.chunksPerPiece ?? 1),
  );
  return queries.map((query, i) => {
    const pasted = cut(ranked[i]).pieces;
    let chars = 0;
    let promptTokens = 0;
    for (const piece of pasted) {
      chars += piece.end - piece.start;
      promptTokens += tokensOf(piece);
    }
    const outcome = scoreContext(
      chunks,
      query,
      { ranked: ranked[i], spans: pasted, chars, tokens: promptTokens },
      options,
    );
    return overBudget.has(i) ? { ...outcome, topOverBudget: true } : outcome;
  });
}
