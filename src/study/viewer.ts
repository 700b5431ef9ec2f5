// The seam viewer's payload: a list of the corpus's documents and the text, with every splitter's chunk spans, of a
// bounded set of them. A static report has no server, so what the page shows must travel in it, and a big corpus
// cannot travel whole: texts are carried up to a character budget, each whole or not at all (only the first may be cut).
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { cacheOrDefault, type ResultCache } from "../experiment/cache";
import { splitCorpusCached } from "../experiment/split-cache";
import type { SplitterConfig } from "../splitters/config";

export interface SeamViewerSplitter {
  name: string;
  chunks: { start: number; end: number }[];
}

/** One stretch of a document the viewer draws, from `offset`, with each splitter's chunks over it. */
export interface SeamViewerText {
  doc: string;
  text: string;
  offset: number;
  splitters: SeamViewerSplitter[];
}

export interface SeamViewerListing {
  doc: string;
  length: number;
  /** per splitter: seams, and seams sharing nothing; null when it was not split */
  seams: (number | null)[];
  zeroSeams: (number | null)[];
  /** characters of its text the payload carries (0: listed only) */
  carried: number;
}

export interface SeamViewerPayload {
  splitterNames?: string[];
  /** the carried documents first, then the others in corpus order */
  documents?: SeamViewerListing[];
  corpusDocs?: number;
  pageChars?: number;
  texts?: SeamViewerText[];
  caption?: string;
  /** one stretch, the shape before the list (still drawn, for notebooks executed before it) */
  doc?: string;
  text?: string;
  offset?: number;
  splitters?: SeamViewerSplitter[];
}

export interface ViewerOptions {
  /** the document carried first: "auto" (default: the first with a seam sharing nothing), an id or an index */
  first?: string | number;
  /** characters of text carried, over all documents (default 150,000) */
  textBudget?: number;
  /** characters of documents split to count their seams for the list (default 3,000,000) */
  listBudget?: number;
  /** characters per page in the viewer (default 12,000) */
  pageChars?: number;
  /** where the splits are kept for a re-run (default: the project's result cache; null: none) */
  cache?: ResultCache | null;
}

/** Documents "auto" looks through for a seam sharing nothing before it settles for the longest of them. */
const AUTO_SEARCH_DOCS = 200;
/** Documents listed at most. */
const LIST_LIMIT = 2_000;

function autoDoc(docs: readonly Doc[], zeroOf: (doc: Doc) => number): Doc {
  const searched = docs.slice(0, AUTO_SEARCH_DOCS);
  return searched.find((d) => zeroOf(d) > 0) ?? searched.reduce((a, b) => (b.text.length > a.text.length ? b : a));
}

/** The document named by `which`: an id or a 0-based index. */
export function pickDoc(docs: readonly Doc[], which: string | number): Doc {
  const doc = typeof which === "number" ? docs[which] : docs.find((d) => d.id === which);
  if (!doc) {
    const some = docs.slice(0, 5).map((d) => d.id);
    throw new SeamlabError(
      `viewerDoc ${JSON.stringify(which)} is not a document of this corpus ` +
        `(${docs.length} docs: ${some.join(", ")}, …): use "auto", an id or an index from 0 to ${docs.length - 1}`,
    );
  }
  return doc;
}

/** Seams (neighbouring chunks) whose later chunk starts at or after the earlier one's end. */
function zeroSeamCount(chunks: readonly { start: number; end: number }[]): number {
  let zero = 0;
  for (let i = 1; i < chunks.length; i++) if (chunks[i].start >= chunks[i - 1].end) zero++;
  return zero;
}

export function viewerSplitterName(config: SplitterConfig): string {
  return `${config.splitter} ${config.size}/${config.overlap}${config.unit === "tokens" ? " tokens" : ""}`;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1) throw new SeamlabError(`the seam viewer's ${name} must be a whole number ≥ 1`);
  return v;
}

function chunksByDoc(docs: readonly Doc[], config: SplitterConfig, cache: ResultCache): Map<string, Chunk[]> {
  const out = new Map<string, Chunk[]>(docs.map((d) => [d.id, []]));
  for (const chunk of splitCorpusCached(docs, config, cache)) out.get(chunk.doc)?.push(chunk);
  return out;
}

/** The payload for 1 to 3 splitters: texts carried `first`, then with a seam sharing nothing, then the rest. */
export function seamViewerPayload(
  docs: readonly Doc[],
  configs: SplitterConfig[],
  options: ViewerOptions = {},
): SeamViewerPayload {
  if (configs.length === 0 || configs.length > 3) {
    throw new SeamlabError(`the seam viewer shows 1 to 3 splitters, got ${configs.length}`);
  }
  if (docs.length === 0) throw new SeamlabError("the seam viewer needs a document, and the corpus has none");
  const textBudget = positive(options.textBudget, 150_000, "textBudget");
  const listBudget = positive(options.listBudget, 3_000_000, "listBudget");
  const pageChars = positive(options.pageChars, 12_000, "pageChars");
  const named = options.first === undefined || options.first === "auto" ? undefined : pickDoc(docs, options.first);
  const split: Doc[] = [];
  let chars = 0;
  for (const doc of docs) {
    if (split.length > 0 && chars + doc.text.length > listBudget) break;
    split.push(doc);
    chars += doc.text.length;
  }
  if (named && !split.includes(named)) split.push(named);
  const cache = cacheOrDefault(options.cache);
  const perSplitter = configs.map((config) => chunksByDoc(split, config, cache));
  const zeroOf = (doc: Doc) => zeroSeamCount(perSplitter[0].get(doc.id) ?? []);
  const firstDoc = named ?? autoDoc(split, zeroOf);
  const rest = split.filter((d) => d !== firstDoc);
  const carried = new Map<Doc, number>();
  let left = textBudget;
  for (const doc of [firstDoc, ...rest.filter((d) => zeroOf(d) > 0), ...rest.filter((d) => zeroOf(d) === 0)]) {
    if (doc === firstDoc || doc.text.length <= left) {
      const take = Math.min(doc.text.length, left);
      carried.set(doc, take);
      left -= take;
    }
    if (left <= 0) break;
  }
  const names = configs.map(viewerSplitterName);
  const listing = (doc: Doc): SeamViewerListing => {
    const chunks = perSplitter.map((m) => m.get(doc.id));
    return {
      doc: doc.id,
      length: doc.text.length,
      seams: chunks.map((c) => (c ? Math.max(0, c.length - 1) : null)),
      zeroSeams: chunks.map((c) => (c ? zeroSeamCount(c) : null)),
      carried: carried.get(doc) ?? 0,
    };
  };
  const carriedDocs = [...carried.keys()];
  const others = docs.filter((d) => !carried.has(d));
  const texts = carriedDocs.map((doc) => {
    const to = carried.get(doc)!;
    return {
      doc: doc.id,
      text: doc.text.slice(0, to),
      offset: 0,
      splitters: perSplitter.map((m, i) => ({
        name: names[i],
        chunks: (m.get(doc.id) ?? []).filter((c) => c.start < to).map((c) => ({ start: c.start, end: c.end })),
      })),
    };
  });
  return {
    splitterNames: names,
    documents: [...carriedDocs, ...others].slice(0, Math.max(LIST_LIMIT, carriedDocs.length)).map(listing),
    corpusDocs: docs.length,
    pageChars,
    texts,
  };
}
