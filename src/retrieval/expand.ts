import type { Chunk, Doc, Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { findHeadings } from "../text/headings";
import { initialBudgetDepth, rankWithinBudget, type ContextBudget } from "./context-budget";
import { scoreContext, type EvaluationOptions, type QueryOutcome } from "./evaluate";
import type { Span } from "./metrics";
import type { Retriever } from "./types";

/**
 * Overlap's alternatives at query time: neighbours (LlamaIndex's sentence window, @llamaindex/core 0.6.23, pasted once
 * per hit, so overlapping windows pay twice, as there) or parents (the `##` section or an N-unit block, each pasted
 * once, as LangChain's ParentDocumentRetriever; a child across a boundary brings both).
 */

/** Where a retrieved chunk's parent comes from: its `##` section, or the N-unit block of its document. */
export type ParentSetting = "section" | number;

export type ContextStrategy = { expand: number } | { parents: ParentSetting };

function byDoc<T extends { doc: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.doc);
    if (group) group.push(item);
    else groups.set(item.doc, [item]);
  }
  return groups;
}

export const spanKey = (span: Span) => `${span.doc}\u0000${span.start}\u0000${span.end}`;

/** The smallest span of `doc` holding all of `spans`. */
const hull = (doc: string, spans: readonly { start: number; end: number }[]): Span => ({
  doc,
  start: spans.reduce((least, span) => Math.min(least, span.start), Infinity),
  end: spans.reduce((most, span) => Math.max(most, span.end), -Infinity),
});

/** For each chunk, its neighbours' window: the span from the n-th chunk before it to the n-th after it, same doc. */
export function neighbourWindows(chunks: readonly Chunk[], n: number): Span[] {
  if (!Number.isInteger(n) || n < 0) throw new SeamlabError(`--expand ${n}: give whole numbers of neighbours >= 0.`);
  const positions = byDoc(chunks.map((chunk, i) => ({ doc: chunk.doc, i })));
  const out: Span[] = new Array(chunks.length);
  for (const group of positions.values()) {
    const ordered = group.map((entry) => entry.i).sort((a, b) => chunks[a].start - chunks[b].start || a - b);
    ordered.forEach((index, position) => {
      const window = ordered.slice(Math.max(0, position - n), position + n + 1).map((w) => chunks[w]);
      out[index] = hull(chunks[index].doc, window);
    });
  }
  return out;
}

/** A document's `#`/`##` sections (outside code fences) as a partition of its text, the text before them one too. */
export function sectionSpans(doc: Doc): Span[] {
  const starts = findHeadings(doc.text)
    .filter((heading) => heading.level <= 2)
    .map((heading) => heading.lineStart)
    .filter((start) => start > 0);
  const bounds = [0, ...starts, doc.text.length];
  const out: Span[] = [];
  for (let i = 0; i + 1 < bounds.length; i++)
    if (bounds[i + 1] > bounds[i]) out.push({ doc: doc.id, start: bounds[i], end: bounds[i + 1] });
  return out;
}

/** Each chunk's parent: the hull of the parents it overlaps, or itself when none (a parent may skip whitespace). */
export function parentSpans(chunks: readonly Chunk[], parents: readonly Span[]): Span[] {
  const parentsOf = byDoc(parents);
  return chunks.map((chunk) => {
    const over = (parentsOf.get(chunk.doc) ?? []).filter((p) => p.start < chunk.end && chunk.start < p.end);
    return hull(chunk.doc, over.length === 0 ? [chunk] : over);
  });
}

/** How many of `ranked` have pieces that fit `budget` (`lengthOf`'s unit), and those; with `once`, repeats are free. */
export function piecesWithinBudget(
  ranked: readonly number[],
  pieceOf: (index: number) => Span,
  lengthOf: (piece: Span) => number,
  budget: number,
  once: boolean,
): { taken: number; pieces: Span[] } {
  const pasted = new Set<string>();
  const pieces: Span[] = [];
  let used = 0;
  for (let i = 0; i < ranked.length; i++) {
    const piece = pieceOf(ranked[i]);
    const key = spanKey(piece);
    if (once && pasted.has(key)) continue;
    const length = lengthOf(piece);
    if (used + length > budget) return { taken: i, pieces };
    used += length;
    pasted.add(key);
    pieces.push(piece);
  }
  return { taken: ranked.length, pieces };
}

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
    const chars = pasted.reduce((sum, piece) => sum + piece.end - piece.start, 0);
    const tokens = pasted.reduce((sum, piece) => sum + tokensOf(piece), 0);
    const outcome = scoreContext(chunks, query, { ranked: ranked[i], spans: pasted, chars, tokens }, options);
    return overBudget.has(i) ? { ...outcome, topOverBudget: true } : outcome;
  });
}

/** What a lever row's hit rate means when some queries' best piece alone was over the `budget` ("5,000 chars"). */
export function topOverBudgetText(
  row: { name: string; over: number; queries: number; parents: boolean },
  budget: string,
): string | undefined {
  if (row.over === 0) return undefined;
  const [piece, lever] = row.parents ? ["parent", "smaller parents"] : ["window", "fewer neighbours"];
  const all = row.over === row.queries;
  const which = all ? `every one of the ${row.queries} queries` : `${row.over} of ${row.queries} queries`;
  const meaning = all ? "its hit rate says nothing of the lever" : "its hit rate counts those as misses";
  return (
    `${row.name}: for ${which} the best chunk's ${piece} alone is over the budget of ${budget}, so nothing reached ` +
    `the prompt (a miss): ${meaning}; try ${lever} or a larger --context-budget.`
  );
}

/** "overlap 0 + ±2 neighbours" / "overlap 0 + section parents" / "overlap 0 + 4000-char parents". */
export function strategyName(strategy: ContextStrategy, unit = "char"): string {
  if ("expand" in strategy) return strategy.expand === 0 ? "overlap 0" : `overlap 0 + ±${strategy.expand} neighbours`;
  return strategy.parents === "section"
    ? "overlap 0 + section parents"
    : `overlap 0 + ${strategy.parents}-${unit} parents`;
}

/** Reads `--expand 0,1,2`: neighbours on each side, whole numbers from 0 to 10. */
export function parseExpandList(text: string): number[] {
  return text.split(",").map((part) => {
    const trimmed = part.trim();
    if (!/^\d+$/.test(trimmed) || Number(trimmed) > 10)
      throw new SeamlabError(
        `--expand ${text}: "${trimmed}" is not a number of neighbours; give whole numbers from 0 to 10, e.g. --expand 0,1,2.`,
      );
    return Number(trimmed);
  });
}

/** Reads `--parents section|N[,...]`: the `##` section, or parent blocks of N units (larger than every size). */
export function parseParentsList(text: string, largestSize: number): ParentSetting[] {
  return text.split(",").map((part) => {
    const trimmed = part.trim().toLowerCase();
    if (trimmed === "section") return "section";
    if (!/^\d+$/.test(trimmed))
      throw new SeamlabError(
        `--parents ${text}: "${part.trim()}" is neither "section" nor a parent size; give e.g. --parents section or --parents 4000.`,
      );
    const size = Number(trimmed);
    if (size <= largestSize)
      throw new SeamlabError(
        `--parents ${size} is not larger than the largest chunk size, ${largestSize}: a parent must hold its children; ` +
          `give a parent size above ${largestSize}.`,
      );
    return size;
  });
}
