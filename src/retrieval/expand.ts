import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { findHeadings } from "../text/headings";
import type { Span } from "./metrics";

/**
 * Overlap's alternatives at query time: index without overlap, then hand the prompt more than the retrieved chunk.
 *
 * - Neighbour expansion (sentence-window retrieval): each retrieved chunk with its n neighbouring chunks on each side
 *   in the same document. The window is LlamaIndex's (`SentenceWindowNodeParser`, @llamaindex/core 0.6.23:
 *   `nodes.slice(max(0, i - windowSize), min(i + windowSize + 1, nodes.length))` over one document's nodes), with
 *   chunks as the nodes (`--splitter sentences` makes them sentences). The window is pasted as the document's text
 *   from its first chunk's start to its last chunk's end (LlamaIndex joins the node texts with " "), once per
 *   retrieved chunk: as LlamaIndex's metadata replacement does, two hits whose windows overlap paste the shared text
 *   twice, and the budget pays for it.
 * - Parent documents: each retrieved chunk replaced by its parent, the `##` section it lies in or an N-unit block
 *   of the document (the same splitter at size N, no overlap), as LangChain's ParentDocumentRetriever hands on each
 *   parent once however many of its children were found (a repeated parent costs nothing). Children are the plain
 *   split, not split inside each parent as LangChain does, so a child across a parent boundary is handed on with both.
 */

/** Where a retrieved chunk's parent comes from: its `##` section, or the N-unit block of its document. */
export type ParentSetting = "section" | number;

/** How a retrieved chunk is handed on: with its neighbours, or as its parent. */
export type ContextStrategy = { expand: number } | { parents: ParentSetting };

/** For each chunk, its neighbours' window: the span from the n-th chunk before it to the n-th after it, same doc. */
export function neighbourWindows(chunks: readonly Chunk[], n: number): Span[] {
  if (!Number.isInteger(n) || n < 0) throw new SeamlabError(`--expand ${n}: give whole numbers of neighbours >= 0.`);
  const byDoc = new Map<string, number[]>();
  chunks.forEach((chunk, i) => {
    if (!byDoc.has(chunk.doc)) byDoc.set(chunk.doc, []);
    (byDoc.get(chunk.doc) as number[]).push(i);
  });
  const out: Span[] = new Array(chunks.length);
  for (const indexes of byDoc.values()) {
    const ordered = [...indexes].sort((a, b) => chunks[a].start - chunks[b].start || a - b);
    ordered.forEach((index, position) => {
      const window = ordered.slice(Math.max(0, position - n), Math.min(position + n + 1, ordered.length));
      let start = Infinity;
      let end = -Infinity;
      for (const w of window) {
        start = Math.min(start, chunks[w].start);
        end = Math.max(end, chunks[w].end);
      }
      out[index] = { doc: chunks[index].doc, start, end };
    });
  }
  return out;
}

/**
 * A document's `#`/`##` sections as a partition of its text: a new section starts at every heading line of level 1
 * or 2 (outside code fences); the text before the first heading is a section of its own.
 */
export function sectionSpans(doc: Doc): Span[] {
  const starts = findHeadings(doc.text)
    .filter((heading) => heading.level <= 2)
    .map((heading) => heading.lineStart)
    .filter((start) => start > 0);
  const bounds = [0, ...starts, doc.text.length];
  const out: Span[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    if (bounds[i + 1] > bounds[i]) out.push({ doc: doc.id, start: bounds[i], end: bounds[i + 1] });
  }
  return out;
}

/**
 * For each chunk, its parent: the union of the parent spans it overlaps (one, unless it crosses a boundary); the
 * chunk itself when it overlaps none (a parent splitter may leave whitespace between its pieces).
 */
export function parentSpans(chunks: readonly Chunk[], parents: readonly Span[]): Span[] {
  const byDoc = new Map<string, Span[]>();
  for (const parent of parents) {
    if (!byDoc.has(parent.doc)) byDoc.set(parent.doc, []);
    (byDoc.get(parent.doc) as Span[]).push(parent);
  }
  return chunks.map((chunk) => {
    let start = Infinity;
    let end = -Infinity;
    for (const parent of byDoc.get(chunk.doc) ?? []) {
      if (parent.start < chunk.end && chunk.start < parent.end) {
        start = Math.min(start, parent.start);
        end = Math.max(end, parent.end);
      }
    }
    return start === Infinity ? { doc: chunk.doc, start: chunk.start, end: chunk.end } : { doc: chunk.doc, start, end };
  });
}

/** What a ranked list of chunks hands the prompt, in rank order: each one's piece, and how many fit the budget. */
export interface PiecesWithinBudget {
  /** How many of the ranked chunks were taken (a prefix). */
  taken: number;
  /** The pieces pasted, in order (a repeated parent once). */
  pieces: Span[];
}

/**
 * The longest prefix of the ranking whose pieces fit `budget` (`lengthOf` a piece, in the budget's unit), stopping at
 * the first piece that would exceed it. With `once`, a piece already pasted costs nothing again (parents).
 */
export function piecesWithinBudget(
  ranked: readonly number[],
  pieceOf: (index: number) => Span,
  lengthOf: (piece: Span) => number,
  budget: number,
  once: boolean,
): PiecesWithinBudget {
  const pasted = new Set<string>();
  const pieces: Span[] = [];
  let used = 0;
  for (let i = 0; i < ranked.length; i++) {
    const piece = pieceOf(ranked[i]);
    const key = `${piece.doc}\u0000${piece.start}\u0000${piece.end}`;
    if (once && pasted.has(key)) continue;
    const length = lengthOf(piece);
    if (used + length > budget) return { taken: i, pieces };
    used += length;
    pasted.add(key);
    pieces.push(piece);
  }
  return { taken: ranked.length, pieces };
}

/**
 * What a lever row's hit rate means when the best chunk's window or parent alone was over the budget for some queries
 * (nothing reached their prompt, a miss the budget made, not the retrieval): undefined when none was. `budget` is the
 * budget's text ("5,000 chars").
 */
export function topOverBudgetText(
  row: { name: string; over: number; queries: number; parents: boolean },
  budget: string,
): string | undefined {
  if (row.over === 0) return undefined;
  const piece = row.parents ? "parent" : "window";
  const lever = row.parents ? "smaller parents" : "fewer neighbours";
  const which =
    row.over === row.queries ? `every one of the ${row.queries} queries` : `${row.over} of ${row.queries} queries`;
  return (
    `${row.name}: for ${which} the best chunk's ${piece} alone is over the budget of ${budget}, so nothing reached ` +
    `the prompt (a miss): ${
      row.over === row.queries ? "its hit rate says nothing of the lever" : "its hit rate " + "counts those as misses"
    }; try ${lever} or a larger --context-budget.`
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
    if (!/^\d+$/.test(trimmed) || Number(trimmed) > 10) {
      throw new SeamlabError(
        `--expand ${text}: "${trimmed}" is not a number of neighbours; give whole numbers from 0 to 10, e.g. --expand 0,1,2.`,
      );
    }
    return Number(trimmed);
  });
}

/** Reads `--parents section|N[,...]`: the `##` section, or parent blocks of N units (larger than every size). */
export function parseParentsList(text: string, largestSize: number): ParentSetting[] {
  return text.split(",").map((part) => {
    const trimmed = part.trim().toLowerCase();
    if (trimmed === "section") return "section";
    if (!/^\d+$/.test(trimmed)) {
      throw new SeamlabError(
        `--parents ${text}: "${part.trim()}" is neither "section" nor a parent size; give e.g. --parents section or --parents 4000.`,
      );
    }
    const size = Number(trimmed);
    if (size <= largestSize) {
      throw new SeamlabError(
        `--parents ${size} is not larger than the largest chunk size, ${largestSize}: a parent must hold its children; ` +
          `give a parent size above ${largestSize}.`,
      );
    }
    return size;
  });
}
