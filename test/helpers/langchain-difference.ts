// Compares seamlab's recursive port with the real LangChain package, document by document and chunk by chunk.
import type { Chunk, Doc } from "../../src/core/types";
import type { SplitterConfig } from "../../src/splitters/config";
import { splitLangchainMany } from "../../src/splitters/langchain";
import { splitRecursive } from "../../src/splitters/recursive";

/** The first chunk where `recursive` and LangChain disagree (text, and span when `withSpans`), or null. */
export function firstDifference(docs: Doc[], config: SplitterConfig, withSpans: boolean): string | null {
  const expected = splitLangchainMany(docs, { ...config, splitter: "langchain" });
  for (let d = 0; d < docs.length; d++) {
    const ours = splitRecursive(docs[d], { ...config, splitter: "recursive" });
    const key = (c: Chunk) => (withSpans ? `${c.start}:${c.end}:${c.text}` : c.text);
    const a = expected[d].map(key);
    const b = ours.map(key);
    if (a.length !== b.length) return `${docs[d].id}: ${a.length} LangChain chunks, ${b.length} ours`;
    for (let i = 0; i < a.length; i++)
      if (a[i] !== b[i]) return `${docs[d].id} chunk ${i}: ${a[i].slice(0, 80)} | ${b[i].slice(0, 80)}`;
  }
  return null;
}
