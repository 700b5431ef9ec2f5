import { createHash } from "node:crypto";
import type { Chunk, Doc } from "../core/types";
import { isSpanOf, sharedDocTermTable } from "./doc-terms";
import { buildBm25Index, buildBm25IndexOfChunks, type Bm25Index, type Bm25Options, type Bm25Scope } from "./bm25-index";
import { tokenizerKey } from "./tokenize";

// The few most recent indexes, by a hash of texts, settings and vocabulary: configs whose chunks come out identical
// (an overlap the splitter could not use, the same arm in two notebook cells) share one immutable index. Besides the
// newest, older ones stay only while together under `keptPostings`, so a large corpus holds one index at a time.
const recentIndexes: { key: string; index: Bm25Index }[] = [];
const keptIndexes = 4;
const keptPostings = 16_000_000;
let reusedIndexes = 0;

/** How many BM25 indexes `sharedBm25Index` served from its memo (in this thread). */
export function bm25IndexReuses(): number {
  return reusedIndexes;
}

/** Drops the oldest indexes while more than `most` are kept or, beyond `least`, their postings exceed the budget. */
function evict(most: number, least: number): void {
  const postings = () => recentIndexes.reduce((sum, entry) => sum + entry.index.postingTextLow.length, 0);
  while (recentIndexes.length > most || (recentIndexes.length > least && postings() > keptPostings))
    recentIndexes.shift();
}

interface ChunkSpans {
  chunks: readonly Chunk[];
  docs: readonly Doc[];
}

// A documents array is never changed once made: it gets a serial number, and chunks that are all exact spans of its
// documents are named by their spans instead of hashing every chunk's text for every config.
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
    packed.set([at, chunk.start, chunk.end], 3 * i);
  }
  return `spans of documents array #${source.serial}: ${createHash("sha256").update(packed).digest("hex")}`;
}

/**
 * `buildBm25Index`, or the index already built for the same texts, settings and scope. Given the `spans` the texts
 * come from and a vocabulary, a new index is built from the documents (`buildBm25IndexOfChunks`: the same index).
 */
export function sharedBm25Index(
  texts: readonly string[],
  options: Bm25Options = {},
  scope: Bm25Scope = {},
  spans?: ChunkSpans,
): Bm25Index {
  const hash = createHash("sha256");
  const terms = scope.vocabulary ? [...scope.vocabulary].sort() : null;
  hash.update(
    JSON.stringify([options.k1 ?? 1.2, options.b ?? 0.75, options.idf ?? "lucene", tokenizerKey(options), terms]),
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
  evict(Infinity, 0); // so that two large indexes are never alive at once
  const { vocabulary } = scope;
  let index: Bm25Index;
  if (spans && vocabulary) {
    const table = sharedDocTermTable(spans.docs, vocabulary, options);
    index = buildBm25IndexOfChunks(spans.chunks, table, options, { ...scope, vocabulary });
  } else index = buildBm25Index(texts, options, scope);
  recentIndexes.push({ key, index });
  evict(keptIndexes, 1);
  return index;
}
