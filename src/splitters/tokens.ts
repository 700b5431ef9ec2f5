/**
 * `tokens`: a sliding window over js-tiktoken tokens (cl100k_base unless `encoding` says otherwise), step =
 * size - overlap tokens; neighbouring chunks share exactly `overlap` tokens. Size and overlap always count
 * tokens here, whatever `unit` says.
 *
 * text vs source: `text === source.slice(start, end)`, the characters the window's tokens cover. When a window
 * edge falls inside a multi-byte character (some emoji, CJK), the span widens to the whole character (see
 * tokenOffsets): the text is what the tokens decode to, with a partial character completed instead of U+FFFD.
 */
import type { Chunk, Doc } from "../core/types";
import { defaultEncoding, tokenOffsets } from "../text/tokens";
import type { SplitterConfig } from "./config";
import { windowSpans } from "./window-spans";

/** Where each token of a document starts and ends (UTF-16 offsets); all a window needs of its encoding. */
interface TokenSpans {
  /** The text encoded (a document edited in place is encoded again). */
  text: string;
  starts: Int32Array;
  ends: Int32Array;
}

// A sweep splits the same documents at several overlaps, one after another in the same thread (token windows of one
// encoding are bundled into one task, see experiment/plan): each document is encoded once, not once per overlap.
// Bounded: at most `CACHED_TOKENS` tokens' spans (8 bytes a token) stay cached; a document's entry goes when the
// document itself is collected.
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
