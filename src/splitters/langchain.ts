// `langchain`: the real `@langchain/textsplitters` RecursiveCharacterTextSplitter (LangChain JS). It returns only
// texts, so spans come from an ordered search of the source (see locateChunks): `text === source.slice(start,
// end)`, and a chunk that cannot be located throws rather than guess. LangChain JS escapes separators, so
// `separatorsAreRegex` is rejected.
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { countTokens, defaultEncoding, getEncoding } from "../text/tokens";
import { isWhitespaceCode } from "../text/whitespace";
import type { SplitterConfig } from "./config";
import { LangchainFields, langchainSplitTextsSync } from "./library-bridge";

/** Registered as `langchain-<language>`: MarkdownTextSplitter, or `fromLanguage(language)`. */
export const LANGCHAIN_LANGUAGES = ["markdown", "js", "python"] as const;

export function langchainFieldsFor(config: SplitterConfig, language?: string): LangchainFields {
  if (config.separatorsAreRegex) {
    throw new SeamlabError(
      "--splitter langchain: LangChain JS escapes separators and cannot use regex separators; use --splitter recursive",
    );
  }
  const keep = config.extra?.keepSeparator;
  if (keep !== undefined && keep !== true && keep !== false) {
    throw new SeamlabError(
      `--splitter langchain: keepSeparator must be true or false in LangChain JS (got ${JSON.stringify(keep)})`,
    );
  }
  if (language !== undefined && config.separators) {
    throw new SeamlabError(
      `--splitter langchain-${language} uses LangChain's ${language} ` +
        `separators; drop --separators or use --splitter langchain`,
    );
  }
  return {
    chunkSize: config.size,
    chunkOverlap: config.overlap,
    tokenEncoding: (config.unit ?? "chars") === "tokens" ? (config.encoding ?? defaultEncoding) : null,
    ...(language !== undefined ? { language } : {}),
    ...(config.separators ? { separators: config.separators } : {}),
    ...(keep === true || keep === false ? { keepSeparator: keep } : {}),
  };
}

/** The offset of the first non-whitespace unit in source[from, to), or -1 when it is all whitespace. */
function firstNonBlank(source: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (!isWhitespaceCode(source.charCodeAt(i))) return i;
  return -1;
}

/**
 * Spans for LangChain's chunk texts by ordered search in the source; throws when a chunk is not found.
 *
 * A candidate, searched from its predecessor's start, must not end before its predecessor, must not be its exact
 * span, and (`noTextDropped`, true for keepSeparator) must leave no non-whitespace text uncovered before it or
 * after the last chunk. If a later chunk cannot be placed, earlier chunks move to their next candidate
 * (depth-first, with a step budget, then the first-occurrence search): repeated lines such as "}" or table rows
 * are placed right. `maxOverlap` (LangChain's character `chunkOverlap`) narrows the search: its merge carries at
 * most that many characters of the previous chunk, so a chunk starts at or after `previous.end - chunkOverlap`.
 */
export function locateChunks(doc: Doc, texts: string[], noTextDropped = true, maxOverlap?: number): Chunk[] {
  const source = doc.text;
  const n = texts.length;
  const starts = new Array<number>(n);
  const searchFrom = new Array<number>(n + 1).fill(-1);
  let budget = 50 * n + 10000;
  let placed = false;
  let i = 0;
  while (budget-- > 0) {
    const prevStart = i > 0 ? starts[i - 1] : 0;
    const prevEnd = i > 0 ? starts[i - 1] + texts[i - 1].length : 0;
    if (i === n) {
      if (!noTextDropped || firstNonBlank(source, prevEnd, source.length) < 0) {
        placed = true;
        break;
      }
    } else {
      const text = texts[i];
      const earliest = i > 0 && maxOverlap !== undefined ? prevEnd - maxOverlap : 0;
      let at = source.indexOf(text, Math.max(prevStart, earliest, searchFrom[i]));
      while (at >= 0) {
        const end = at + text.length;
        const sameAsPrev = i > 0 && at === prevStart && end === prevEnd;
        if (end >= prevEnd && !sameAsPrev) {
          // Later candidates leave at least this text uncovered too.
          if (noTextDropped && at > prevEnd && firstNonBlank(source, prevEnd, at) >= 0) at = -1;
          break;
        }
        at = source.indexOf(text, at + 1);
      }
      if (at >= 0) {
        starts[i] = at;
        i++;
        searchFrom[i] = -1;
        continue;
      }
    }
    // Backtrack: move the previous chunk to its next occurrence.
    if (i === 0) break;
    i--;
    searchFrom[i] = starts[i] + 1;
  }
  if (!placed) return locateChunksGreedy(doc, texts, maxOverlap);
  // A slice of the source shares the document's memory; the worker's copy would hold every chunk a second time.
  return texts.map((text, k) => {
    const start = starts[k];
    const end = start + text.length;
    return { doc: doc.id, start, end, text: source.slice(start, end) };
  });
}

/** First-occurrence ordered search (the fallback); throws when a chunk is not in the source. */
function locateChunksGreedy(doc: Doc, texts: string[], maxOverlap?: number): Chunk[] {
  const source = doc.text;
  const chunks: Chunk[] = [];
  let from = 0;
  let prevEnd = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i];
    let at = source.indexOf(text, i > 0 && maxOverlap !== undefined ? Math.max(from, prevEnd - maxOverlap) : from);
    while (at >= 0 && at + text.length < prevEnd) at = source.indexOf(text, at + 1);
    if (at < 0) {
      throw new Error(
        `langchain chunk ${i} of "${doc.id}" (${JSON.stringify(text.slice(0, 60))}…)` +
          ` not found in the source after offset ${from}`,
      );
    }
    chunks.push({ doc: doc.id, start: at, end: at + text.length, text: source.slice(at, at + text.length) });
    from = at;
    prevEnd = at + text.length;
  }
  return chunks;
}

/** The chunks of docs in worker round trips of at most `batchChars` characters (each holds its texts 3 more times). */
export function splitLangchainMany(
  docs: Doc[],
  config: SplitterConfig,
  language?: string,
  batchChars = 4_000_000,
): Chunk[][] {
  const fields = langchainFieldsFor(config, language);
  const noTextDropped = fields.keepSeparator !== false;
  const out: Chunk[][] = [];
  for (let from = 0; from < docs.length;) {
    let to = from + 1;
    for (let chars = docs[from].text.length; to < docs.length && chars + docs[to].text.length <= batchChars; to++)
      chars += docs[to].text.length;
    const batch = docs.slice(from, to);
    const sources = batch.map((d) => d.text);
    const texts = langchainSplitTextsSync(sources, fields);
    batch.forEach((doc, i) => out.push(locateChunks(doc, texts[i], noTextDropped, overlapChars(fields))));
    from = to;
  }
  return out;
}

/** The same, in-process through LangChain's own async API (no worker): for async callers and benchmarks. */
export async function splitLangchainAsync(doc: Doc, config: SplitterConfig, language?: string): Promise<Chunk[]> {
  const fields = langchainFieldsFor(config, language);
  const { RecursiveCharacterTextSplitter, MarkdownTextSplitter } = await import("@langchain/textsplitters");
  const { language: _language, tokenEncoding: encoding, ...fixed } = fields;
  if (encoding) getEncoding(encoding);
  const options = { ...fixed, lengthFunction: encoding ? (text: string) => countTokens(text, encoding) : undefined };
  const splitter =
    language === "markdown"
      ? new MarkdownTextSplitter(options)
      : language
        ? RecursiveCharacterTextSplitter.fromLanguage(language as "js", options)
        : new RecursiveCharacterTextSplitter(options);
  return locateChunks(doc, await splitter.splitText(doc.text), fields.keepSeparator !== false, overlapChars(fields));
}

/** Most characters LangChain carries over: chunkOverlap, unless it counts tokens or drops separators (uncounted). */
function overlapChars(fields: LangchainFields): number | undefined {
  return fields.tokenEncoding || fields.keepSeparator === false ? undefined : fields.chunkOverlap;
}
