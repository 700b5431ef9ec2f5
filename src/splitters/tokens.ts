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

export function splitTokens(doc: Doc, config: SplitterConfig): Chunk[] {
  const { starts, ends, tokens } = tokenOffsets(doc.text, config.encoding ?? defaultEncoding);
  return windowSpans(tokens.length, config.size, config.overlap).map(([first, last]) => {
    const start = starts[first];
    const end = ends[last - 1];
    return { doc: doc.id, start, end, text: doc.text.slice(start, end) };
  });
}
