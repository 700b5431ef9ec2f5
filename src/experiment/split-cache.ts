// A corpus's split kept in the result cache. A library's splitter costs seconds on a corpus (LlamaIndex's sentence
// splitter, chonkie's token chunker: their own code), and a report re-run asks for the same splits again.
import type { Chunk, Doc } from "../core/types";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpus } from "../splitters/registry";
import { cacheKey, hashDocs, type ResultCache } from "./cache";
import { resultsVersion } from "./fingerprint";

/** A chunk as stored: its document's index, its span, and its text only when it is not the span's source text. */
type StoredChunk = [doc: number, start: number, end: number, text?: string];

/** `splitCorpus(docs, config)`, read from `cache` when this corpus, config and code were split before. */
export function splitCorpusCached(docs: readonly Doc[], config: SplitterConfig, cache: ResultCache): Chunk[] {
  const key = cacheKey({
    corpusHash: hashDocs(docs),
    queriesHash: "",
    config: { split: config },
    version: resultsVersion(),
  });
  const stored = chunksOf(cache.get(key), docs);
  if (stored) return stored;
  const chunks = splitCorpus(docs as Doc[], config);
  const docIndex = new Map(docs.map((doc, at) => [doc.id, at]));
  // Stored only when the ids are distinct and every chunk is plain (doc, start, end, text: nothing a span loses).
  if (docIndex.size !== docs.length || chunks.some((chunk) => Object.keys(chunk).length !== 4)) return chunks;
  const entry = chunks.map((chunk): StoredChunk => {
    const at = docIndex.get(chunk.doc)!;
    const same = docs[at].text.slice(chunk.start, chunk.end) === chunk.text;
    return same ? [at, chunk.start, chunk.end] : [at, chunk.start, chunk.end, chunk.text];
  });
  cache.put(key, entry);
  return chunks;
}

/** The chunks a cache entry holds, or undefined when it is not a split of `docs`. */
function chunksOf(value: unknown, docs: readonly Doc[]): Chunk[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const chunks: Chunk[] = [];
  for (const item of value as unknown[]) {
    if (!Array.isArray(item) || item.length < 3 || item.length > 4) return undefined;
    const [at, start, end, text] = item as StoredChunk;
    const doc = Number.isInteger(at) ? docs[at] : undefined;
    const inside = doc && Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end;
    if (!inside || end > doc.text.length || (text !== undefined && typeof text !== "string")) return undefined;
    chunks.push({ doc: doc.id, start, end, text: text ?? doc.text.slice(start, end) });
  }
  return chunks;
}
