/**
 * `window`: a plain sliding character window, step = size - overlap; with `unit: "tokens"` the token window.
 * It stops once a chunk reaches the end, so no trailing chunk lies wholly inside its predecessor (the naive
 * `while start < len` loop emits "g" for "...lazy dog" at 10/3). Neighbours share exactly `overlap` characters.
 */
import type { Chunk, Doc } from "../core/types";
import type { SplitterConfig } from "./config";
import { splitTokens, windowSpans } from "./tokens";

export function splitWindow(doc: Doc, config: SplitterConfig): Chunk[] {
  if ((config.unit ?? "chars") === "tokens") return splitTokens(doc, config);
  return windowSpans(doc.text.length, config.size, config.overlap).map(([start, end]) => ({
    doc: doc.id,
    start,
    end,
    text: doc.text.slice(start, end),
  }));
}
