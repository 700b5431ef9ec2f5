/**
 * `window`: a plain sliding character window, step = size - overlap.
 *
 * The window stops once a chunk reaches the end of the text, so there is no degenerate trailing chunk wholly
 * inside its predecessor (the naive `while start < len` loop emits one, e.g. "g" for "...lazy dog" at 10/3).
 * Neighbouring chunks share exactly `overlap` characters. With `unit: "tokens"` it is the token window.
 *
 * text vs source: `text === source.slice(start, end)` exactly.
 */
import type { Chunk, Doc } from "../core/types";
import type { SplitterConfig } from "./config";
import { splitTokens } from "./tokens";
import { windowSpans } from "./window-spans";

export function splitWindow(doc: Doc, config: SplitterConfig): Chunk[] {
  if ((config.unit ?? "chars") === "tokens") return splitTokens(doc, config);
  return windowSpans(doc.text.length, config.size, config.overlap).map(([start, end]) => ({
    doc: doc.id,
    start,
    end,
    text: doc.text.slice(start, end),
  }));
}
