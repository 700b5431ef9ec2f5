/**
 * `window-words`: a sliding character window whose edges sit on word boundaries (a "word" is a run of
 * non-whitespace, see text/words), and whose chunks never exceed `size`.
 *
 * Greedy, left to right: a chunk starting at `s` ends at the last word boundary at or before `s + size`; the next
 * chunk starts at the word boundary at or before `end - overlap` (or, when that would not move forward, at the
 * next word start). So neighbours share about `overlap` characters, less by the word cut at the overlap's edge,
 * and never leave a gap: no text is lost. A word longer than the room left is cut (the only mid-word edges). When
 * the overlap plus the next word does not fit, the overlap gives way a word at a time (no chunk lies wholly inside
 * its predecessor).
 * Unlike a fixed-step window snapped afterwards, an edge never moves back past `size`, so a long unbroken run
 * (base64, a URL) cannot stretch a chunk beyond `size`.
 *
 * text vs source: `text === source.slice(start, end)` exactly. Characters only (`unit: "tokens"` is rejected).
 */
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { isWordBoundary, nextWordStart, snapBackToBoundary } from "../text/words";
import type { SplitterConfig } from "./config";

/** window-words counts characters only. */
export function checkWindowWordsConfig(config: SplitterConfig): void {
  if ((config.unit ?? "chars") !== "chars") {
    throw new SeamlabError("--splitter window-words counts characters only: use --unit chars, or --splitter tokens");
  }
}

export function splitWindowWords(doc: Doc, config: SplitterConfig): Chunk[] {
  checkWindowWordsConfig(config);
  const text = doc.text;
  const { size, overlap } = config;
  const chunks: Chunk[] = [];
  // The last boundary in (start, start + size]; with none (one word longer than the room) the window is cut there.
  const endFor = (start: number) => {
    const limit = Math.min(start + size, text.length);
    return snapBackToBoundary(text, limit, limit - start - 1);
  };
  let start = 0;
  let prevEnd = 0;
  while (start < text.length) {
    let end = endFor(start);
    // A chunk that would end where its predecessor ends adds nothing: give up overlap a word at a time.
    while (end <= prevEnd && start < prevEnd) {
      start = nextWordStart(text, start + 1, prevEnd);
      end = endFor(start);
    }
    chunks.push({ doc: doc.id, start, end, text: text.slice(start, end) });
    if (end === text.length) break;
    prevEnd = end;
    start = nextStart(text, start, end, overlap);
  }
  return chunks;
}

/** Where the chunk after `[start, end)` begins: on a boundary, after `start`, no later than `end`. */
function nextStart(text: string, start: number, end: number, overlap: number): number {
  const target = end - overlap;
  if (target <= start) return end; // the chunk is no longer than the overlap: continue where it ends
  const back = snapBackToBoundary(text, target, target - start - 1);
  if (isWordBoundary(text, back)) return back;
  return nextWordStart(text, target, end); // the next word start, or `end` when none is left in the chunk
}
