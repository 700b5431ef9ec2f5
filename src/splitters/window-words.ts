/**
 * `window-words`: the character window with both edges snapped back to word boundaries (a "word" is a run of
 * non-whitespace, see text/words). The nominal windows are those of `window` (step = size - overlap); each
 * edge moves back to the start of the word it would cut, so no chunk starts or ends mid-word and no text is
 * lost. A chunk can therefore exceed `size` by the part of a word that straddled its nominal start, and
 * neighbours share roughly `overlap` characters (more or less by the words cut at either end). An edge inside a
 * word longer than `size` is not moved (the word has to be cut). A chunk wholly inside its predecessor is
 * skipped.
 *
 * text vs source: `text === source.slice(start, end)` exactly. Characters only (`unit: "tokens"` is rejected).
 */
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { snapBackToBoundary } from "../text/words";
import type { SplitterConfig } from "./config";
import { windowSpans } from "./window-spans";

/** window-words counts characters only. */
export function checkWindowWordsConfig(config: SplitterConfig): void {
  if ((config.unit ?? "chars") !== "chars") {
    throw new SeamlabError("--splitter window-words counts characters only: use --unit chars, or --splitter tokens");
  }
}

export function splitWindowWords(doc: Doc, config: SplitterConfig): Chunk[] {
  checkWindowWordsConfig(config);
  const text = doc.text;
  const chunks: Chunk[] = [];
  let prevStart = -1;
  let prevEnd = 0;
  for (const [nominalStart, nominalEnd] of windowSpans(text.length, config.size, config.overlap)) {
    // Never move an edge further back than the previous chunk's edge: that keeps chunks in order and bounds the
    // scan (a 50 MB run without spaces costs O(size) per chunk, not O(n)).
    const start = Math.max(snapBackToBoundary(text, nominalStart, config.size), prevStart + 1, 0);
    let end = snapBackToBoundary(text, nominalEnd, config.size);
    if (end <= start) end = nominalEnd; // a word longer than the window: cut it
    if (end <= prevEnd) continue; // wholly inside the predecessor
    chunks.push({ doc: doc.id, start, end, text: text.slice(start, end) });
    prevStart = start;
    prevEnd = end;
  }
  return chunks;
}
