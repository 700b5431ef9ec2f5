/**
 * `tail`: recursive splitting at overlap 0, then every chunk but the first prefixed with the previous chunk's last
 * `overlap` units, moved forward to a word start (the seed's fix #2): the overlap people assume `chunk_overlap`
 * gives. A chunk can reach size + overlap. Tail and chunk are joined by the source between them, so the text is
 * `source.slice(start, end)` with the default keepSeparator.
 */
import type { Chunk, Doc } from "../core/types";
import { defaultEncoding, tokenOffsets } from "../text/tokens";
import { nextWordStart } from "../text/words";
import type { SplitterConfig } from "./config";
import { recursiveOptionsFor } from "./recursive";
import { splitRecursiveWith } from "./recursive-core";

/** Where a tail of `overlap` units taken from the end of `prev` starts in the source (a word start). */
function tailStart(source: string, prev: Chunk, overlap: number, config: SplitterConfig): number {
  if (overlap === 0) return prev.end;
  let from: number;
  if ((config.unit ?? "chars") === "tokens") {
    const { starts } = tokenOffsets(prev.text, config.encoding ?? defaultEncoding);
    from = starts.length <= overlap ? prev.start : prev.start + starts[starts.length - overlap];
  } else {
    from = Math.max(prev.start, prev.end - overlap);
  }
  // Open with a whole word; with no word start in the tail (a long URL), cut mid-word as the seed's
  // `t[t.find(" ") + 1:]` does, rather than lose the overlap.
  if (from === prev.start) return from;
  const wordStart = nextWordStart(source, from, prev.end);
  return wordStart < prev.end ? wordStart : from;
}

export function splitTail(doc: Doc, config: SplitterConfig): Chunk[] {
  const base = splitRecursiveWith(doc, recursiveOptionsFor({ ...config, overlap: 0 }));
  return base.map((chunk, i) => {
    if (i === 0) return chunk;
    const start = tailStart(doc.text, base[i - 1], config.overlap, config);
    if (start >= base[i - 1].end || start >= chunk.start) return chunk; // overlap 0
    return { doc: doc.id, start, end: chunk.end, text: doc.text.slice(start, chunk.start) + chunk.text };
  });
}
