import { SeamlabError } from "../core/errors";
import { seededRandom } from "../core/random";
import type { Doc, Query } from "../core/types";
import { LIST_ITEM_START, removeRanges, scanMarkdownLines } from "../text/headings";
import type { TextRegion } from "../text/paragraphs";
import { paragraphSentences } from "../text/sentences";
import { isSourcePath } from "../text/code-units";
import { englishStopWords } from "./tokenize";

/**
 * Inverse-cloze queries (ICT; Lee, Chang and Toutanova 2019): a sampled prose sentence is the query and its context
 * the gold span, which a hit must hold whole, so a seam anywhere in it misses unless overlap carries the whole span.
 * Chosen sentences are removed once from the returned `docs`, so every config splits the same text.
 */
export interface IctOptions {
  n?: number; // default 500, or every usable sentence when fewer (at least 30)
  seed?: number; // default 1
  keepSentence?: boolean; // keep the query sentence in the indexed text (default false)
  contextSentences?: number; // sentences of context on each side (default 1)
  query?: IctQueryForm; // "sentence" (default) or its `contentWords`: a question sharing words, not phrasing
  /**
   * "context" (default) or "place": the sentence itself when kept, else the two characters joined where it was
   * removed; a chunk must sit where it is, like a labelled answer's short excerpt.
   */
  hit?: IctHit;
  minWords?: number; // default 8 to 60 words: shorter sentences are labels or fragments, longer ones lists
  maxWords?: number;
  allowFewer?: boolean; // take every usable sentence when fewer than `n` can serve (default: when `n` is not given)
  corpusName?: string;
}

export type IctQueryForm = "sentence" | "content-words";
export type IctHit = "context" | "place";

type IctSkipped = Record<"tooShort" | "tooLong" | "notProse" | "boilerplate" | "noNeighbour", number>;

export type IctQuerySet = ReturnType<typeof buildIctQueries>;

interface Candidate {
  index: number; // in its paragraph's sentences
  paragraph: TextRegion[];
  start: number;
  end: number;
}

const DEFAULT_COUNT = 500;
const MIN_COUNT = 30;

// code, links and table cells (a " | " separator: tables without a leading pipe read as text lines)
const CODE_SIGNS = /`|[{}]|;\s*$|=>|:\/\/|\(\)|\s\|\s/;

/** Prose paragraphs: runs of markdown text lines, a list item starting a new one. */
function proseParagraphs(text: string): TextRegion[] {
  const lines = scanMarkdownLines(text);
  const paragraphs: TextRegion[] = [];
  let current: TextRegion | undefined;
  for (const line of lines) {
    const isText = line.kind === "text";
    const startsItem = isText && LIST_ITEM_START.test(text.slice(line.start, line.end));
    if (current && (!isText || startsItem)) {
      paragraphs.push(current);
      current = undefined;
    }
    if (!isText) continue;
    if (current) current.end = line.end;
    else current = { start: line.start, end: line.end };
  }
  if (current) paragraphs.push(current);
  return paragraphs;
}

const normalise = (sentence: string) => sentence.toLowerCase().replace(/\s+/g, " ").trim();
const wordCount = (sentence: string) => sentence.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

function classify(sentence: string, minWords: number, maxWords: number): keyof IctSkipped | undefined {
  const words = wordCount(sentence);
  if (words < minWords) return "tooShort";
  if (words > maxWords) return "tooLong";
  const visible = sentence.replace(/\s+/g, "");
  const letters = (visible.match(/\p{L}/gu) ?? []).length;
  if (letters < 0.6 * visible.length || CODE_SIGNS.test(sentence)) return "notProse";
  if (!/\p{Ll}/u.test(sentence)) return "boilerplate";
  return undefined;
}

/** The region removed with the sentence: up to the next sentence, or back to the previous one when it is last. */
function removalOf(c: Candidate): TextRegion {
  const next = c.paragraph[c.index + 1];
  if (next) return { start: c.start, end: next.start };
  const previous = c.paragraph[c.index - 1];
  return { start: previous ? previous.end : c.start, end: c.end };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Shares `n` among documents in proportion to `capacity` (largest remainder, ties to the earlier one). */
export function allocateProportionally(n: number, capacity: readonly number[]): number[] {
  const total = capacity.reduce((s, c) => s + c, 0);
  if (total === 0) return capacity.map(() => 0);
  const exact = capacity.map((c) => (n * c) / total);
  const quota = exact.map((x, i) => Math.min(capacity[i], Math.floor(x)));
  let left = n - quota.reduce((s, q) => s + q, 0);
  const order = exact
    .map((x, i) => ({ i, remainder: x - Math.floor(x) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (let gave = true; left > 0 && gave;) {
    gave = false;
    for (const { i } of order)
      if (left > 0 && quota[i] < capacity[i]) {
        quota[i]++;
        left--;
        gave = true;
      }
  }
  return quota;
}

/** The query as sent: blockquote markers of wrapped lines dropped, whitespace runs made one space. */
function queryText(sentence: string): string {
  return sentence
    .replace(/(^|\n)[ \t]*>[ \t]?/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** The queries, the corpus to split (same ids and order), the prose sentences seen and those that could serve. */
export function buildIctQueries(docs: readonly Doc[], options: IctOptions = {}) {
  const settings = {
    n: options.n ?? DEFAULT_COUNT,
    seed: options.seed ?? 1,
    keepSentence: options.keepSentence ?? false,
    contextSentences: options.contextSentences ?? 1,
    query: options.query ?? ("sentence" as IctQueryForm),
    hit: options.hit ?? ("context" as IctHit),
    minWords: options.minWords ?? 8,
    maxWords: options.maxWords ?? 60,
  };
  if (!Number.isInteger(settings.n) || settings.n < 1)
    throw new SeamlabError(`ICT query count (--ict-n) must be a whole number >= 1, got ${settings.n}.`);
  if (!Number.isInteger(settings.contextSentences) || settings.contextSentences < 1)
    throw new SeamlabError(
      `ICT context (--ict-context) must be a whole number >= 1, got ${settings.contextSentences}.`,
    );
  if (settings.query !== "sentence" && settings.query !== "content-words")
    throw new SeamlabError(
      `ICT query form must be "sentence" or "content-words", got ${JSON.stringify(settings.query)}.`,
    );
  if (settings.hit !== "context" && settings.hit !== "place")
    throw new SeamlabError(`ICT hit must be "context" or "place", got ${JSON.stringify(settings.hit)}.`);
  const skipped: IctSkipped = { tooShort: 0, tooLong: 0, notProse: 0, boilerplate: 0, noNeighbour: 0 };
  const w = settings.contextSentences;

  // pass 1: every prose sentence, and how often each occurs (repeats are boilerplate)
  const isCode = docs.map((doc) => isSourcePath(doc.source ?? doc.id));
  const codeDocs = isCode.filter(Boolean).length;
  const name = options.corpusName ? `corpus "${options.corpusName}"` : "the corpus";
  if (docs.length > 0 && codeDocs === docs.length)
    throw new SeamlabError(
      `${name} has no prose for inverse-cloze queries: all ${docs.length} documents are source code ` +
        `(${exampleExtensions(docs)}), whose statements are not sentences. Use a corpus of prose (.md, .txt), or ` +
        "give a labelled file in --queries.",
    );
  const perDoc = docs.map((doc, d) =>
    isCode[d] ? [] : proseParagraphs(doc.text).map((paragraph) => paragraphSentences(doc.text, paragraph)),
  );
  const uses = new Map<string, number>();
  let sentenceCount = 0;
  perDoc.forEach((paragraphs, d) => {
    for (const sentences of paragraphs) {
      for (const s of sentences) {
        sentenceCount++;
        const key = normalise(docs[d].text.slice(s.start, s.end));
        uses.set(key, (uses.get(key) ?? 0) + 1);
      }
    }
  });

  // pass 2: candidates per document, then a seeded greedy pick, none inside another's context
  let candidateCount = 0;
  const picks: Candidate[][] = perDoc.map((paragraphs, d) => {
    const text = docs[d].text;
    const candidates: Candidate[] = [];
    for (const paragraph of paragraphs) {
      paragraph.forEach((s, index) => {
        const sentence = text.slice(s.start, s.end);
        const reason =
          classify(sentence, settings.minWords, settings.maxWords) ??
          ((uses.get(normalise(sentence)) ?? 0) > 1 ? "boilerplate" : undefined) ??
          (paragraph.length < 2 ? "noNeighbour" : undefined);
        if (reason) skipped[reason]++;
        else candidates.push({ index, paragraph, start: s.start, end: s.end });
      });
    }
    candidateCount += candidates.length;
    const random = seededRandom((settings.seed * 1_000_003 + d) >>> 0);
    const chosenByParagraph = new Map<TextRegion[], number[]>();
    const chosen: Candidate[] = [];
    for (const c of shuffle(candidates, random)) {
      const taken = chosenByParagraph.get(c.paragraph) ?? [];
      if (taken.some((index) => Math.abs(index - c.index) <= w)) continue;
      taken.push(c.index);
      chosenByParagraph.set(c.paragraph, taken);
      chosen.push(c);
    }
    return chosen;
  });

  const capacity = picks.map((p) => p.length);
  const available = capacity.reduce((s, c) => s + c, 0);
  const allowFewer = options.allowFewer ?? options.n === undefined;
  if (allowFewer && available >= Math.min(MIN_COUNT, settings.n)) settings.n = Math.min(settings.n, available);
  if (available < settings.n) {
    const wanted = allowFewer ? `the ${Math.min(MIN_COUNT, settings.n)} needed for` : `${settings.n}`;
    throw new SeamlabError(
      `${name} is too small for ${wanted} inverse-cloze queries: ${available} sentences can serve ` +
        `(${docs.length} documents${codeDocs ? `, ${codeDocs} of them source code, which has no sentences` : ""}, ` +
        `${sentenceCount} prose sentences, skipped ${JSON.stringify(skipped)}). ` +
        (available > 0
          ? `Lower --ict-n to ${available} or less, or use a larger corpus.`
          : "Use a corpus with prose paragraphs of two or more sentences, or give a labelled file in --queries."),
    );
  }
  const quota = allocateProportionally(settings.n, capacity);

  const outDocs: Doc[] = [];
  const queries: Query[] = [];
  docs.forEach((doc, d) => {
    const chosen = picks[d].slice(0, quota[d]).sort((a, b) => a.start - b.start);
    const without = settings.keepSentence
      ? { text: doc.text, toNew: (offset: number) => offset }
      : removeRanges(doc.text, chosen.map(removalOf));
    outDocs.push(without.text === doc.text ? doc : { ...doc, text: without.text });
    for (const c of chosen) {
      const gold = goldOf(c, settings, without);
      const sentence = queryText(doc.text.slice(c.start, c.end));
      queries.push({
        id: `${doc.id}#${c.start}`,
        text: settings.query === "content-words" ? contentWords(sentence) : sentence,
        doc: doc.id,
        gold: [{ doc: doc.id, ...gold }],
      });
    }
  });
  return { docs: outDocs, queries, sentences: sentenceCount, candidates: candidateCount, skipped, settings };
}

/** The gold span of a chosen sentence in the text that gets split (`without`). */
function goldOf(
  c: Candidate,
  settings: Required<Omit<IctOptions, "corpusName" | "allowFewer">>,
  without: ReturnType<typeof removeRanges>,
): TextRegion {
  const { toNew } = without;
  if (settings.hit === "context") {
    const w = settings.contextSentences;
    const first = c.paragraph[Math.max(0, c.index - w)];
    const last = c.paragraph[Math.min(c.paragraph.length - 1, c.index + w)];
    return { start: toNew(first.start), end: toNew(last.end) };
  }
  if (settings.keepSentence) return { start: c.start, end: c.end };
  const junction = toNew(removalOf(c).start);
  return { start: Math.max(0, junction - 1), end: Math.min(without.text.length, junction + 1) };
}

/** A sentence's content words: lower-cased letter/digit runs in order, English function words dropped. */
export function contentWords(sentence: string): string {
  const words = sentence.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const content = words.filter((word) => !englishStopWords.has(word));
  return (content.length > 0 ? content : words).join(" ");
}

/** A few of the corpus's file extensions, for a message: ".ts, .js". */
function exampleExtensions(docs: readonly Doc[]): string {
  const extensions = new Set(docs.map((doc) => /\.[^./\\]+$/.exec(doc.source ?? doc.id)?.[0].toLowerCase() ?? "?"));
  return [...extensions].sort().slice(0, 5).join(", ");
}
