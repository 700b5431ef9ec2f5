// `semantic`: break a document where the cosine of adjacent sentences' embeddings falls below a similarity or a
// percentile of the document's, or at `maxSentences` / `maxLength`. Embedding is async: the registry's entry serves
// chunks `prepareSemanticSplit` (semantic-prepared.ts) made beforehand.
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { quantile } from "../stats/quantiles";
import { cosine, Embedder } from "../embed/types";
import { sentenceRegions } from "../text/sentences";
import { lengthFunctionFor, tokenOffsets } from "../text/tokens";
import type { Unit } from "./config";

export type SemanticThreshold = { similarity: number } | { percentile: number };

export interface SemanticOptions {
  /** Break below this similarity, or this percentile (0–100) of the doc's neighbour similarities (default 10th). */
  threshold?: SemanticThreshold;
  /** Most sentences in one chunk (default 12). */
  maxSentences?: number;
  /** Longest chunk in `unit`s (default: no limit); longer sentences are cut at whitespace first. */
  maxLength?: number;
  unit?: Unit;
  encoding?: string;
  /** Sentences repeated at the start of the next chunk after a break: 0 (default), 1 or 2. */
  overlapSentences?: number;
  /** Neighbours on each side embedded with a sentence (default 0). */
  window?: number;
}

type Region = { start: number; end: number };

function checkOptions(options: SemanticOptions) {
  const threshold = options.threshold ?? { percentile: 10 };
  const maxSentences = options.maxSentences ?? 12;
  const overlapSentences = options.overlapSentences ?? 0;
  const window = options.window ?? 0;
  if ("percentile" in threshold && !(threshold.percentile >= 0 && threshold.percentile <= 100)) {
    throw new SeamlabError(`semantic splitter: percentile must be in [0, 100], got ${threshold.percentile}.`);
  }
  if ("similarity" in threshold && !(threshold.similarity >= -1 && threshold.similarity <= 1)) {
    throw new SeamlabError(`semantic splitter: similarity threshold must be in [-1, 1], got ${threshold.similarity}.`);
  }
  if (!Number.isInteger(maxSentences) || maxSentences < 1)
    throw new SeamlabError(`semantic splitter: maxSentences must be >= 1, got ${maxSentences}.`);
  if (![0, 1, 2].includes(overlapSentences))
    throw new SeamlabError(`semantic splitter: overlapSentences must be 0, 1 or 2, got ${overlapSentences}.`);
  if (overlapSentences >= maxSentences) {
    throw new SeamlabError(
      `semantic splitter: overlapSentences (${overlapSentences}) must be smaller than maxSentences (${maxSentences}).`,
    );
  }
  if (!Number.isInteger(window) || window < 0)
    throw new SeamlabError(`semantic splitter: window must be a whole number >= 0, got ${window}.`);
  if (options.maxLength !== undefined && !(options.maxLength > 0))
    throw new SeamlabError(`semantic splitter: maxLength must be > 0, got ${options.maxLength}.`);
  return { ...options, threshold, maxSentences, overlapSentences, window, unit: options.unit ?? "chars" };
}

/** The checked options, each doc's sentences, and the texts embedded (each sentence with `window` neighbours). */
function planDocs(docs: readonly Doc[], options: SemanticOptions) {
  const settings = checkOptions(options);
  const plans = docs.map((doc) => ({
    doc,
    sentences:
      settings.maxLength === undefined
        ? sentenceRegions(doc.text)
        : capSentences(doc.text, sentenceRegions(doc.text), settings.unit, settings.maxLength, settings.encoding),
  }));
  const texts = plans.flatMap(({ doc, sentences }) =>
    sentences.map((_, i) => {
      const from = sentences[Math.max(0, i - settings.window)].start;
      const to = sentences[Math.min(sentences.length - 1, i + settings.window)].end;
      return doc.text.slice(from, to);
    }),
  );
  return { settings, plans, texts };
}

/** Every sentence text each doc would embed (what an `lsa` embedder for this splitter is fitted on). */
export function semanticSentenceTexts(docs: readonly Doc[], options: SemanticOptions = {}): string[] {
  return planDocs(docs, options).texts;
}

/** [first, last] sentence indices per chunk, given each sentence's similarity to the next. */
export function groupSentences(
  similarities: readonly number[],
  sentenceCount: number,
  options: {
    threshold: number;
    maxSentences: number;
    overlapSentences: number;
    fits?: (first: number, last: number) => boolean;
  },
): [number, number][] {
  const groups: [number, number][] = [];
  let first = 0;
  for (let i = 0; i < sentenceCount; i++) {
    const last = i === sentenceCount - 1;
    const full = i - first + 1 >= options.maxSentences;
    const wouldOverflow = !last && options.fits !== undefined && !options.fits(first, i + 1);
    if (last || similarities[i] < options.threshold || full || wouldOverflow) {
      groups.push([first, i]);
      if (last) break;
      // Start the next chunk `overlapSentences` early, but always after this chunk's first sentence.
      first = Math.max(i + 1 - options.overlapSentences, first + 1);
    }
  }
  return groups;
}

/** Splits `docs` semantically with sentence vectors from `embedder` (one batched `embed` call for the corpus). */
export async function splitSemantic(
  docs: readonly Doc[],
  options: SemanticOptions,
  embedder: Embedder,
): Promise<Chunk[]> {
  const { settings, plans, texts } = planDocs(docs, options);
  const vectors = texts.length === 0 ? [] : await embedder.embed(texts);
  const lengthOf = settings.maxLength === undefined ? undefined : lengthFunctionFor(settings.unit, settings.encoding);
  const chunks: Chunk[] = [];
  let at = 0;
  for (const { doc, sentences } of plans) {
    const docVectors = vectors.slice(at, at + sentences.length);
    at += sentences.length;
    if (sentences.length === 0) continue;
    const similarities = docVectors.slice(1).map((vector, i) => cosine(docVectors[i], vector));
    const t = settings.threshold;
    const threshold =
      "similarity" in t
        ? t.similarity
        : similarities.length === 0
          ? -Infinity
          : quantile(similarities, t.percentile / 100);
    const fits =
      lengthOf === undefined
        ? undefined
        : lengthCheck(doc.text, sentences, settings.unit, settings.maxLength!, lengthOf);
    for (const [first, last] of groupSentences(similarities, sentences.length, { ...settings, threshold, fits })) {
      const start = sentences[first].start;
      const end = sentences[last].end;
      chunks.push({ doc: doc.id, start, end, text: doc.text.slice(start, end) });
    }
  }
  return chunks;
}

/** Every "sentence" over `limit` (chat logs, tables, code) cut at its last whitespace within it, so maxLength holds. */
export function capSentences(
  text: string,
  sentences: Region[],
  unit: Unit,
  limit: number,
  encoding?: string,
): Region[] {
  const out: Region[] = [];
  for (const sentence of sentences) {
    let start = sentence.start;
    for (;;) {
      const rest = text.slice(start, sentence.end);
      let cut: number;
      if (unit === "chars") {
        if (rest.length <= limit) break;
        cut = limit;
      } else {
        const { starts, tokens } = tokenOffsets(rest, encoding);
        if (tokens.length <= limit) break;
        cut = starts[limit];
      }
      const space =
        rest.lastIndexOf(" ", cut) > 0 ? rest.lastIndexOf(" ", cut) : Math.max(rest.lastIndexOf("\n", cut), 0);
      let end = start + (space > 0 ? space : Math.max(cut, 1));
      while (end > start && /\s/.test(text[end - 1])) end--;
      if (end <= start) end = start + Math.max(cut, 1);
      out.push({ start, end });
      start = end;
      while (start < sentence.end && /\s/.test(text[start])) start++;
      if (start >= sentence.end) break;
    }
    if (start < sentence.end) out.push({ start, end: sentence.end });
  }
  return out;
}

/**
 * Whether sentences first..last fit in `limit`, exactly. Tokenizing each growing chunk is quadratic (11 s on Chroma's
 * corpora): the parts' token sum screens first (BPE splits at whitespace), tokenizing whole only within 10% of it.
 */
function lengthCheck(
  text: string,
  sentences: Region[],
  unit: Unit,
  limit: number,
  lengthOf: (text: string) => number,
): (first: number, last: number) => boolean {
  if (unit === "chars") return (first, last) => sentences[last].end - sentences[first].start <= limit;
  const own = sentences.map((s) => lengthOf(text.slice(s.start, s.end)));
  const gap = sentences.map((s, i) => (i === 0 ? 0 : lengthOf(text.slice(sentences[i - 1].end, s.start))));
  return (first, last) => {
    let parts = own[first];
    let gaps = 0;
    for (let i = first + 1; i <= last; i++) {
      parts += own[i];
      gaps += gap[i];
    }
    if (parts + gaps < 0.9 * limit) return true;
    if (parts > 1.1 * limit) return false;
    return lengthOf(text.slice(sentences[first].start, sentences[last].end)) <= limit;
  };
}
