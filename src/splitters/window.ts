// Sliding windows, step = size - overlap, stopping once a chunk reaches the end, so no trailing chunk lies wholly
// inside its predecessor (the naive `while start < len` loop emits "g" for "...lazy dog" at 10/3). Neighbours share
// exactly `overlap` units: characters for `window` (`tokens` with `unit: "tokens"`), js-tiktoken tokens for `tokens`
// (cl100k_base unless `encoding` says otherwise, whatever `unit` says), whose text is the source its tokens cover
// (an edge inside a multi-byte character widens to the whole character: tokenOffsets).
import type { Chunk, Doc } from "../core/types";
import { defaultEncoding, tokenOffsets } from "../text/tokens";
import type { SplitterConfig } from "./config";

/** `[start, end)` windows over `length` units with the given size and step; the last one ends at `length`. */
export function windowSpans(length: number, size: number, overlap: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (length === 0) return spans;
  const step = size - overlap;
  for (let start = 0; ; start += step) {
    const end = Math.min(start + size, length);
    spans.push([start, end]);
    if (end === length) break;
  }
  return spans;
}

export function splitWindow(doc: Doc, config: SplitterConfig): Chunk[] {
  if ((config.unit ?? "chars") === "tokens") return splitTokens(doc, config);
  return windowSpans(doc.text.length, config.size, config.overlap).map(([start, end]) => ({
    doc: doc.id,
    start,
    end,
    text: doc.text.slice(start, end),
  }));
}

/** Where each token of `text` starts and ends (UTF-16 offsets). */
type TokenSpans = { text: string; starts: Int32Array; ends: Int32Array };

// A sweep splits the same documents at several overlaps in one thread (see experiment/plan): each document is
// encoded once. At most `CACHED_TOKENS` tokens' spans (8 bytes a token) stay cached, each while its document lives.
const CACHED_TOKENS = 8_000_000;
let cachedTokens = 0;
const spansCache = new WeakMap<Doc, Map<string, TokenSpans>>();
const released = new FinalizationRegistry<number>((tokens) => (cachedTokens -= tokens));

function tokenSpansOf(doc: Doc, encoding: string): TokenSpans {
  const byEncoding = spansCache.get(doc);
  const cached = byEncoding?.get(encoding);
  if (cached && cached.text === doc.text) return cached;
  const { starts, ends } = tokenOffsets(doc.text, encoding);
  const spans = { text: doc.text, starts, ends };
  if (!cached && cachedTokens + starts.length <= CACHED_TOKENS) {
    cachedTokens += starts.length;
    released.register(doc, starts.length);
    if (byEncoding) byEncoding.set(encoding, spans);
    else spansCache.set(doc, new Map([[encoding, spans]]));
  }
  return spans;
}

export function splitTokens(doc: Doc, config: SplitterConfig): Chunk[] {
  const { starts, ends } = tokenSpansOf(doc, config.encoding ?? defaultEncoding);
  return windowSpans(starts.length, config.size, config.overlap).map(([first, last]) => {
    const start = starts[first];
    const end = ends[last - 1];
    return { doc: doc.id, start, end, text: doc.text.slice(start, end) };
  });
}
