import type { Chunk, Doc } from "../../src/core/types";

/** A chunk covering `doc.text[start, end)` with exactly that text. */
export function span(doc: Doc, start: number, end: number): Chunk {
  return { doc: doc.id, start, end, text: doc.text.slice(start, end) };
}

/** A chunk covering the first occurrence of `from` up to the end of the first `to` after it. */
export function spanOf(doc: Doc, from: string, to: string): Chunk {
  const start = doc.text.indexOf(from);
  const end = doc.text.indexOf(to, start) + to.length;
  if (start < 0 || end < to.length) throw new Error(`"${from}".."${to}" not in ${doc.id}`);
  return span(doc, start, end);
}
