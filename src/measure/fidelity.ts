/**
 * How faithfully chunk texts match their spans: a library that rewrites text (collapses whitespace, drops
 * markdown marks, leaks placeholders) embeds something other than `source.slice(start, end)`. seamlab measures
 * seams on spans and embeds `text`; this says how many chunks differ, how, and where the first change is.
 */
import type { Chunk, Doc } from "../core/types";
import { spanMatch, type SpanMatch } from "../splitters/locate";
import { chunksByDoc } from "./chunks-by-doc";

export interface TextChange {
  doc: string;
  /** Index of the chunk within its document. */
  chunk: number;
  match: Exclude<SpanMatch, "exact">;
  /** Source offset where the chunk's text first differs from its span. */
  offset: number;
  /** Up to 40 characters of each side from that point. */
  source: string;
  text: string;
}

export interface SpanFidelity {
  chunks: number;
  exact: number;
  whitespace: number;
  rewritten: number;
  /** The first `limit` changes, in corpus order. */
  changes: TextChange[];
}

/** Where `chunk.text` first departs from the source it spans. */
export function describeTextChange(doc: Doc, chunk: Chunk, index: number): TextChange | null {
  const match = spanMatch(doc, chunk);
  if (match === "exact") return null;
  const covered = doc.text.slice(chunk.start, chunk.end);
  let k = 0;
  while (k < covered.length && k < chunk.text.length && covered[k] === chunk.text[k]) k++;
  return {
    doc: doc.id,
    chunk: index,
    match,
    offset: chunk.start + k,
    source: covered.slice(k, k + 40),
    text: chunk.text.slice(k, k + 40),
  };
}

/** Counts of exact, whitespace-only and rewritten chunks, with the first `limit` changes. */
export function measureSpanFidelity(docs: readonly Doc[], chunks: readonly Chunk[], limit = 5): SpanFidelity {
  const out: SpanFidelity = { chunks: chunks.length, exact: 0, whitespace: 0, rewritten: 0, changes: [] };
  const byDoc = chunksByDoc(docs, chunks);
  for (const doc of docs) {
    const list = byDoc.get(doc.id) ?? [];
    list.forEach((chunk, i) => {
      const change = describeTextChange(doc, chunk, i);
      if (!change) {
        out.exact++;
        return;
      }
      out[change.match]++;
      if (out.changes.length < limit) out.changes.push(change);
    });
  }
  return out;
}

/** One line naming where a library changed text, e.g. for a test failure or the CLI. */
export function formatTextChange(change: TextChange): string {
  return (
    `${change.doc} chunk ${change.chunk} at offset ${change.offset} (${change.match}): ` +
    `source ${JSON.stringify(change.source)} vs embedded ${JSON.stringify(change.text)}`
  );
}
