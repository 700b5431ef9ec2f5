import { createHash } from "node:crypto";
import type { Chunk, Doc } from "../core/types";
import { isSpanOf, sharedDocTermTable } from "./doc-terms";
import { buildBm25Index, buildBm25IndexOfChunks, type Bm25Index, type Bm25Options, type Bm25Scope } from "./bm25-index";

// The few most recent indexes, keyed by a hash of their texts, settings and vocabulary: configs whose chunks come
// out identical (an overlap the splitter could not use, two splitters agreeing, the same arm in two notebook cells)
// search one index instead of rebuilding it. An index is immutable once built, so sharing it is safe. Besides the
// newest, older ones are kept only while all of them together hold at most `keptPostings` postings, so a sweep
// over a large corpus holds one index at a time.
const recentIndexes: { key: string; index: Bm25Index }[] = [];
const keptIndexes = 4;
const keptPostings = 16_000_000;
let reusedIndexes = 0;

/** How many BM25 indexes were served from `sharedBm25Index`'s memo instead of being rebuilt (in this thread). */
export function bm25IndexReuses(): number {
  return reusedIndexes;
}

const postingsOf = (index: Bm25Index) => index.postingTextLow.length;

/** Chunks and the documents they are spans of (`Chunk.doc` ids). */
export interface ChunkSpans {
  chunks: readonly Chunk[];
  docs: readonly Doc[];
}

// Documents arrays are plain data that is never changed once made (as everywhere in seamlab): a serial number and
// the positions of their ids are kept per array, so that chunks which are all exact spans of one array's documents
// are named by their spans instead of by hashing every chunk's text again for every config.
const spanSources = new WeakMap<readonly Doc[], { serial: number; position: Map<string, number> }>();
let lastSerial = 0;

/** A name of the chunks' texts when every chunk is an exact span of one of `docs`, else null. */
function spansName({ chunks, docs }: ChunkSpans): string | null {
  let source = spanSources.get(docs);
  if (source === undefined) {
    source = { serial: ++lastSerial, position: new Map(docs.map((doc, i) => [doc.id, i])) };
    spanSources.set(docs, source);
  }
  const packed = new Int32Array(3 * chunks.length);
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    const at = source.position.get(chunk.doc);
    if (at === undefined || !isSpanOf(chunk, docs[at].text)) return null;
    packed[3 * i] = at;
    packed[3 * i + 1] = chunk.start;
    packed[3 * i + 2] = chunk.end;
  }
  return `spans of documents array #${source.serial}: ${createHash("sha256").update(packed).digest("hex")}`;
}

/**
 * `buildBm25Index`, or the index already built for the same texts, settings and scope. Given the `spans` the texts
 * come from (`texts[i]` = `spans.chunks[i].text`) and a vocabulary, a new index is built from the documents
 * (`buildBm25IndexOfChunks`: the same index).
 */
export function sharedBm25Index(
  texts: readonly string[],
  options: Bm25Options = {},
  scope: Bm25Scope = {},
  spans?: ChunkSpans,
): Bm25Index {
  const hash = createHash("sha256");
  const stopWords = options.stopWords ? [...options.stopWords].sort().join(" ") : "";
  const terms = scope.vocabulary ? [...scope.vocabulary].sort() : null;
  hash.update(
    JSON.stringify([options.k1 ?? 1.2, options.b ?? 0.75, options.idf ?? "lucene", !!options.stem, stopWords, terms]),
  );
  const named = spans && scope.vocabulary ? spansName(spans) : null;
  if (named !== null) hash.update(named);
  else for (const text of texts) hash.update(`${text.length}:`).update(text);
  const key = hash.digest("hex");
  const at = recentIndexes.findIndex((entry) => entry.key === key);
  if (at >= 0) {
    const [entry] = recentIndexes.splice(at, 1);
    recentIndexes.push(entry);
    reusedIndexes++;
    return entry.index;
  }
  // Drop what the budget cannot keep before building, so two large indexes are never alive at once.
  while (recentIndexes.length > 0 && recentIndexes.reduce((s, e) => s + postingsOf(e.index), 0) > keptPostings)
    recentIndexes.shift();
  const vocabulary = scope.vocabulary;
  const index =
    spans && vocabulary
      ? buildBm25IndexOfChunks(spans.chunks, sharedDocTermTable(spans.docs, vocabulary, options), options, {
          ...scope,
          vocabulary,
        })
      : buildBm25Index(texts, options, scope);
  recentIndexes.push({ key, index });
  while (
    recentIndexes.length > keptIndexes ||
    (recentIndexes.length > 1 && recentIndexes.reduce((s, e) => s + postingsOf(e.index), 0) > keptPostings)
  )
    recentIndexes.shift();
  return index;
}
