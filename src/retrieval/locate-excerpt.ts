import type { Doc, GoldSpan } from "../core/types";

/**
 * Where `excerpt` occurs in `doc`, forgiving whitespace only (a model re-wraps lines; case, punctuation and quotes
 * stay): the occurrence overlapping `near` (its passage) if any, else the first.
 */
export function locateExcerpt(doc: Doc, excerpt: string, near?: { start: number; end: number }): GoldSpan | undefined {
  const words = excerpt.split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return undefined;
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "g");
  let first: GoldSpan | undefined;
  for (let m = pattern.exec(doc.text); m !== null; m = pattern.exec(doc.text)) {
    const span = { doc: doc.id, start: m.index, end: m.index + m[0].length };
    if (!near || (span.start < near.end && near.start < span.end)) return span;
    first ??= span;
  }
  return first;
}
