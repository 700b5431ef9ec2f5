// `window-words`: a sliding character window with edges on word boundaries, chunks never over `size`: each ends at
// the last boundary within `size`, the next starts at the boundary at or before `end - overlap` (no gap). Unlike a
// fixed-step window snapped afterwards, a long unbroken run (base64) cannot stretch a chunk.
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { isWordBoundary, nextWordStart, snapBackToBoundary } from "../text/words";
import type { SplitterConfig } from "./config";

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
