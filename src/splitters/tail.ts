/**
 * `tail`: recursive splitting at overlap 0, then every chunk but the first is prefixed with the last `overlap`
 * units of the previous chunk, trimmed forward to a word start (the seed's fix #2, "stitch a tail on"). This is
 * the overlap people assume `chunk_overlap` gives them: every seam shares text, up to `overlap` characters (or
 * tokens with `unit: "tokens"`). A chunk can reach size + overlap.
 *
 * text vs source: the text is the tail, the whitespace between the two chunks in the source, and the chunk,
 * joined; with the default keepSeparator that is `source.slice(start, end)` exactly, and `start` is where the
 * tail begins in the source.
 * When the previous chunk's last `overlap` units hold no word start (a long URL), the tail is cut mid-word, as
 * the seed's `t[t.find(" ") + 1:]` does.
 */
import type { Chunk, Doc } from "../core/types";
import { defaultEncoding, tokenOffsets } from "../text/tokens";
import { nextWordStart } from "../text/words";
import type { SplitterConfig } from "./config";
import { recursiveOptionsFor, splitRecursiveWith } from "./recursive";

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
  // A tail starting mid-word would open the chunk with a fragment: start at the next whole word instead. When
  // the tail holds no word start at all (a long URL), keep the cut tail rather than lose the overlap.
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
