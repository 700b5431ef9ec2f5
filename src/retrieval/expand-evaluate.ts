import type { Chunk, Doc, Query } from "../core/types";
import { initialBudgetDepth, rankWithinBudget, type ContextBudget } from "./context-budget";
import { scoreContext, type EvaluationOptions, type QueryOutcome } from "./evaluate";
import { piecesWithinBudget, spanKey } from "./expand";
import type { Span } from "./metrics";
import type { Retriever } from "./types";

export interface PieceEvaluationOptions extends EvaluationOptions {
  budget: ContextBudget;
  docs: readonly Doc[]; // the documents the chunks are spans of
  pieces: readonly Span[]; // per chunk index, its neighbour window or parent (retrieval/expand)
  once: boolean; // a piece already pasted costs nothing again (parents)
  countTokens: (text: string) => number;
  chunksPerPiece?: number; // about how many chunks' text a piece holds (2n + 1 for n neighbours), for the first depth
}

/** Scores every query on the pieces its chunks bring, up to the budget, by plain hit@k's rule with pieces pasted. */
export async function evaluateWithPieces(
  chunks: readonly Chunk[],
  queries: readonly Query[],
  retriever: Retriever,
  options: PieceEvaluationOptions,
): Promise<QueryOutcome[]> {
  const textOf = new Map(options.docs.map((doc) => [doc.id, doc.text]));
  const tokens = new Map<string, number>();
  const tokensOf = (piece: Span): number => {
    const key = spanKey(piece);
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
  // queries whose best chunk's piece alone is over the budget: an empty context, a miss the budget made
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
