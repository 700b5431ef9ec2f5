// The recursive family over recursive-core: `recursive` (our span-native port of LangChain Python 0.3.x
// RecursiveCharacterTextSplitter), `sentences` and `tail`.
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { defaultEncoding, lengthFunctionFor, tokenOffsets } from "../text/tokens";
import { nextWordStart } from "../text/words";
import type { SplitterConfig } from "./config";
import { KeepSeparator, RecursiveOptions, splitRecursiveWith } from "./recursive-core";

const defaultSeparators: string[] = ["\n\n", "\n", " ", ""];

/** The RecursiveOptions a config means; `separators`/`isRegex` default to the given set. */
export function recursiveOptionsFor(
  config: SplitterConfig,
  fallbackSeparators: string[] = defaultSeparators,
  fallbackIsRegex = false,
): RecursiveOptions {
  const unit = config.unit ?? "chars";
  const separators = config.separators ?? fallbackSeparators;
  const isSeparatorRegex = config.separators ? config.separatorsAreRegex === true : fallbackIsRegex;
  if (isSeparatorRegex) {
    for (const s of separators) {
      try {
        new RegExp(s, "g");
      } catch (error) {
        throw new SeamlabError(
          `--separators: ${JSON.stringify(s)} is not a valid regular expression (${(error as Error).message})`,
        );
      }
    }
  }
  const keep = config.extra?.keepSeparator;
  if (keep !== undefined && keep !== true && keep !== false && keep !== "start" && keep !== "end")
    throw new SeamlabError(`keepSeparator must be true, false, "start" or "end" (got ${JSON.stringify(keep)})`);
  return {
    size: config.size,
    overlap: config.overlap,
    separators,
    isSeparatorRegex,
    keepSeparator: (keep as KeepSeparator | undefined) ?? true, // LangChain's default
    stripWhitespace: config.extra?.stripWhitespace !== false,
    length: lengthFunctionFor(unit, config.encoding ?? defaultEncoding),
    lengthIsChars: unit === "chars",
    langchainJsCompat: config.extra?.langchainJsCompat === true,
  };
}

export function splitRecursive(doc: Doc, config: SplitterConfig): Chunk[] {
  return splitRecursiveWith(doc, recursiveOptionsFor(config));
}

/**
 * `sentences`: the recursive algorithm split first at sentence ends or line breaks (the seed's fix #1: pieces
 * smaller than the overlap, so the merge can carry some over; overlap carries whole pieces only). Sentence ends
 * alone leave long pieces in markdown: 37% zero-overlap seams on opentelemetry-docs at 1000/200 (45% with
 * LangChain's separators); sentence ends or line breaks leave 5%, at a 1.18x index size.
 * The separators (regular expressions): whitespace after . ! ? (optionally closed by a quote or bracket) or a line
 * break; word; char.
 */
export const sentenceSeparators: string[] = ["(?<=[.!?][\"'\\u201d\\u2019)\\]]?)\\s+|\\n+", " ", ""];

export function splitSentences(doc: Doc, config: SplitterConfig): Chunk[] {
  return splitRecursiveWith(doc, recursiveOptionsFor(config, sentenceSeparators, true));
}

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

/**
 * `tail`: recursive splitting at overlap 0, then every chunk but the first prefixed with the previous chunk's last
 * `overlap` units, moved forward to a word start (the seed's fix #2): the overlap people assume `chunk_overlap`
 * gives. A chunk can reach size + overlap. Tail and chunk are joined by the source between them, so the text is
 * `source.slice(start, end)` with the default keepSeparator.
 */
export function splitTail(doc: Doc, config: SplitterConfig): Chunk[] {
  const base = splitRecursiveWith(doc, recursiveOptionsFor({ ...config, overlap: 0 }));
  return base.map((chunk, i) => {
    if (i === 0) return chunk;
    const start = tailStart(doc.text, base[i - 1], config.overlap, config);
    if (start >= base[i - 1].end || start >= chunk.start) return chunk; // overlap 0
    return { doc: doc.id, start, end: chunk.end, text: doc.text.slice(start, chunk.start) + chunk.text };
  });
}
