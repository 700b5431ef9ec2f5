/**
 * `langchain`: the real `@langchain/textsplitters` RecursiveCharacterTextSplitter (LangChain JS). It returns only
 * texts, so spans are recovered by ordered search: each chunk is looked up from the previous chunk's start (a
 * chunk never starts before its predecessor) and must not end before its predecessor's end. Text repeated
 * within one chunk length (a "}" or "|" line, a run of dashes) can still make a span ambiguous: the earliest
 * candidate wins (preferring later ones was tried and misplaces table rows on real docs). The text is exact. A
 * chunk that cannot be located throws: the spans are never guessed.
 *
 * text vs source: `text === source.slice(start, end)` exactly, by construction of the search.
 * LangChain JS escapes separators (no regex support), so `separatorsAreRegex` is rejected.
 */
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { countTokens, defaultEncoding, getEncoding } from "../text/tokens";
import { isWhitespaceCode } from "../text/whitespace";
import type { SplitterConfig } from "./config";
import { LangchainFields, langchainSplitTextsSync } from "./langchain-bridge";

/**
 * The LangChain language presets seamlab registers as `langchain-<language>` rows: `MarkdownTextSplitter` and
 * `RecursiveCharacterTextSplitter.fromLanguage(language)` (LangChain's own separators for that language).
 */
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
  const unit = config.unit ?? "chars";
  const fields: LangchainFields = {
    chunkSize: config.size,
    chunkOverlap: config.overlap,
    tokenEncoding: unit === "tokens" ? (config.encoding ?? defaultEncoding) : null,
  };
  if (language !== undefined) {
    if (config.separators) {
      throw new SeamlabError(
        `--splitter langchain-${language} uses LangChain's ${language} ` +
          `separators; drop --separators or use --splitter langchain`,
      );
    }
    fields.language = language;
  }
  if (config.separators) fields.separators = config.separators;
  if (keep === true || keep === false) fields.keepSeparator = keep;
  return fields;
}

/** The offset of the first non-whitespace unit in source[from, to), or -1 when it is all whitespace. */
function firstNonBlank(source: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (!isWhitespaceCode(source.charCodeAt(i))) return i;
  return -1;
}

/**
 * Spans for LangChain's chunk texts by ordered search in the source; throws when a chunk is not found.
 *
 * Each chunk is searched from its predecessor's start. A candidate is accepted when it does not end before its
 * predecessor, is not the predecessor's exact span, and (when `noTextDropped`, true for keepSeparator) leaves no
 * non-whitespace text uncovered between the predecessor and itself, and after the last chunk. If a later chunk
 * cannot be placed, earlier chunks move to their next candidate (depth-first, with a step budget; past the
 * budget the plain earliest-occurrence search is used). This resolves repeated lines such as "}" or table rows
 * that a first-occurrence search places inside the previous chunk.
 *
 * `maxOverlap` (characters; LangChain's `chunkOverlap` when its length function counts characters) narrows the
 * search to where LangChain can put the next chunk: its merge keeps, of the previous chunk's pieces, only a tail
 * of at most `chunkOverlap` characters (`total > chunkOverlap` drops pieces from the front), and the next chunk
 * starts at that tail, or after the previous chunk when nothing is kept; trimming only moves starts later. So a
 * chunk starts at or after `previous.end - chunkOverlap` (and after `previous.start`), and with no text dropped
 * at or before the first non-blank character from `previous.end` on. On text repeated within a chunk length (one
 * paragraph 40 times), this window leaves one candidate where the earliest occurrence was chunks off.
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
          // Later candidates leave at least the same non-whitespace text uncovered: stop at the first blocker.
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
  // The text is the source's own (equal by construction): a slice shares the document's memory, where the copy
  // the worker sent back would hold every chunk's characters a second time.
  return texts.map((text, k) => {
    const start = starts[k];
    const end = start + text.length;
    return { doc: doc.id, start, end, text: source.slice(start, end) };
  });
}

/** First-occurrence ordered search (the fallback); throws when a chunk is not in the source. */
export function locateChunksGreedy(doc: Doc, texts: string[], maxOverlap?: number): Chunk[] {
  const source = doc.text;
  const chunks: Chunk[] = [];
  let from = 0;
  let prevEnd = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i];
    let at = source.indexOf(text, i > 0 && maxOverlap !== undefined ? Math.max(from, prevEnd - maxOverlap) : from);
    while (at >= 0 && at + text.length < prevEnd) at = source.indexOf(text, at + 1);
    if (at < 0 || !source.startsWith(text, at)) {
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

/**
 * Characters sent to the LangChain worker per round trip. A round trip holds its texts three more times (the
 * message, the worker's copy, the chunk texts coming back), so a whole large corpus in one message would hold it
 * several times over; batches of this size keep that to a few tens of MB at any corpus size.
 */
export const langchainBatchChars = 4_000_000;

/** The chunks of several docs, in round trips to the LangChain worker of at most `batchChars` characters each. */
export function splitLangchainMany(
  docs: Doc[],
  config: SplitterConfig,
  language?: string,
  batchChars = langchainBatchChars,
): Chunk[][] {
  const fields = langchainFieldsFor(config, language);
  const noTextDropped = fields.keepSeparator !== false;
  const out: Chunk[][] = [];
  for (let from = 0; from < docs.length;) {
    let to = from + 1;
    for (let chars = docs[from].text.length; to < docs.length && chars + docs[to].text.length <= batchChars; to++)
      chars += docs[to].text.length;
    const batch = docs.slice(from, to);
    const texts = langchainSplitTextsSync(
      batch.map((d) => d.text),
      fields,
    );
    batch.forEach((doc, i) => out.push(locateChunks(doc, texts[i], noTextDropped, overlapChars(fields))));
    from = to;
  }
  return out;
}

export function splitLangchain(doc: Doc, config: SplitterConfig): Chunk[] {
  return splitLangchainMany([doc], config)[0];
}

/** The same, in-process through LangChain's own async API (no worker): for async callers and benchmarks. */
export async function splitLangchainAsync(doc: Doc, config: SplitterConfig, language?: string): Promise<Chunk[]> {
  const fields = langchainFieldsFor(config, language);
  const { RecursiveCharacterTextSplitter, MarkdownTextSplitter } = await import("@langchain/textsplitters");
  const encoding = fields.tokenEncoding;
  if (encoding) getEncoding(encoding);
  const options = {
    chunkSize: fields.chunkSize,
    chunkOverlap: fields.chunkOverlap,
    ...(fields.separators ? { separators: fields.separators } : {}),
    ...(fields.keepSeparator !== undefined ? { keepSeparator: fields.keepSeparator } : {}),
    ...(encoding ? { lengthFunction: (text: string) => countTokens(text, encoding) } : {}),
  };
  const splitter =
    language === "markdown"
      ? new MarkdownTextSplitter(options)
      : language
        ? RecursiveCharacterTextSplitter.fromLanguage(language as "js", options)
        : new RecursiveCharacterTextSplitter(options);
  return locateChunks(doc, await splitter.splitText(doc.text), fields.keepSeparator !== false, overlapChars(fields));
}

/**
 * The most characters LangChain carries from one chunk into the next: its overlap, when its length function counts
 * characters and separators stay in the pieces (with keepSeparator false its merge total leaves them out, so the
 * carried text can be longer; with tokens, no character count follows from the token count).
 */
function overlapChars(fields: LangchainFields): number | undefined {
  return fields.tokenEncoding || fields.keepSeparator === false ? undefined : fields.chunkOverlap;
}
