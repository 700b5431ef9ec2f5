// A library that rewrites text (collapses whitespace, drops markdown marks) embeds something other than
// `source.slice(start, end)`: how many chunks differ, how, and where the first change is.
import type { Chunk, Doc } from "../core/types";
import { spanMatch, type SpanMatch } from "../splitters/locate";
import { chunksByDoc } from "./chunks-by-doc";

export interface TextChange {
  doc: string;
  chunk: number;
  match: Exclude<SpanMatch, "exact">;
  /** where the text first differs, with up to 40 characters of each side from there */
  offset: number;
  source: string;
  text: string;
}

/** Exact, whitespace-only and rewritten chunks, with the first `limit` changes. */
export function measureSpanFidelity(docs: readonly Doc[], chunks: readonly Chunk[], limit = 5) {
  const out = { chunks: chunks.length, exact: 0, whitespace: 0, rewritten: 0, changes: [] as TextChange[] };
  const byDoc = chunksByDoc(docs, chunks);
  for (const doc of docs) {
    (byDoc.get(doc.id) ?? []).forEach((chunk, index) => {
      const match = spanMatch(doc, chunk);
      if (match === "exact") {
        out.exact++;
        return;
      }
      out[match]++;
      if (out.changes.length >= limit) return;
      const covered = doc.text.slice(chunk.start, chunk.end);
      let k = 0;
      while (k < covered.length && k < chunk.text.length && covered[k] === chunk.text[k]) k++;
      const [source, text] = [covered.slice(k, k + 40), chunk.text.slice(k, k + 40)];
      out.changes.push({ doc: doc.id, chunk: index, match, offset: chunk.start + k, source, text });
    });
  }
  return out;
}

export function formatTextChange(change: TextChange): string {
  return (
    `${change.doc} chunk ${change.chunk} at offset ${change.offset} (${change.match}): ` +
    `source ${JSON.stringify(change.source)} vs embedded ${JSON.stringify(change.text)}`
  );
}
