/**
 * Registry entries for the real chunking libraries other teams use, run in a worker (`library-worker.mjs`) with
 * a per-document timeout, at the exact versions pinned in package.json. Each entry says what the library's own
 * size and overlap count and what it carries across a seam (shown by `--help` and docs/libraries.md).
 *
 * Spans come from `locateLibraryChunks`: exact when the library returns source text verbatim, otherwise mapped
 * through whitespace or letters-and-digits (see locate.ts); `text` stays what the library would embed.
 */
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { defaultEncoding } from "../text/tokens";
import type { SplitterConfig, Unit } from "./config";
import { LibraryOptions, runLibrarySync } from "./library-bridge";
import { locateLibraryChunks } from "./locate";

export interface LibrarySplitter {
  /** Registry name, e.g. `llamaindex-sentence`. */
  name: string;
  /** The library family shown in tables ("LlamaIndex TS"). */
  library: string;
  /** The npm package and the class/function used. */
  api: string;
  /** Units the library can count `size`/`overlap` in. */
  units: Unit[];
  /** What size and overlap mean in this library and what crosses a seam. */
  semantics: string;
  /** True when the library ignores `overlap` (it has none): configured overlap is reported, realised is 0. */
  ignoresOverlap?: boolean;
  /** True when the library ignores `size` (structure-only parsers). */
  ignoresSize?: boolean;
}

export const librarySplitters: LibrarySplitter[] = [
  {
    name: "llamaindex-sentence",
    library: "LlamaIndex TS",
    api: "@llamaindex/core/node-parser SentenceSplitter",
    units: ["chars", "tokens"],
    semantics:
      "chunkSize/chunkOverlap counted by its tokenizer (we pass one counting the " +
      "--unit); splits paragraph > sentence > word, merges up to size, then carries " +
      "whole trailing splits whose total fits in chunkOverlap; chunks are trimmed",
  },
  {
    name: "llamaindex-token",
    library: "LlamaIndex TS",
    api: "@llamaindex/core/node-parser TokenTextSplitter",
    units: ["chars", "tokens"],
    semantics:
      "splits on spaces (then newlines) and merges to chunkSize; " +
      "carries trailing splits up to chunkOverlap; chunks trimmed",
  },
  {
    name: "llamaindex-markdown",
    library: "LlamaIndex TS",
    api: "@llamaindex/core/node-parser MarkdownNodeParser",
    units: ["chars", "tokens"],
    ignoresSize: true,
    ignoresOverlap: true,
    semantics:
      'one chunk per markdown header section, no size limit and no overlap; drops the "#" marks ' +
      'and embeds "Header_N: …" metadata lines before the text (spans map the section text)',
  },
  {
    name: "mastra-recursive",
    library: "Mastra",
    api: "@mastra/rag MDocument.chunk({strategy: 'recursive'})",
    units: ["chars", "tokens"],
    semantics:
      "maxSize/overlap in the --unit (lengthFunction); LangChain-style recursive merge, overlap " +
      "made of whole trailing pieces up to `overlap`; pieces re-joined and whitespace stripped",
  },
  {
    name: "mastra-character",
    library: "Mastra",
    api: "@mastra/rag MDocument.chunk({strategy: 'character'})",
    units: ["chars", "tokens"],
    semantics: 'splits on "\\n\\n" and merges to maxSize; overlap of whole trailing pieces up to `overlap`',
  },
  {
    name: "mastra-token",
    library: "Mastra",
    api: "@mastra/rag MDocument.chunk({strategy: 'token'})",
    units: ["tokens"],
    semantics:
      "js-tiktoken window of maxSize tokens stepping maxSize - overlap: neighbours share exactly `overlap` tokens",
  },
  {
    name: "mastra-markdown",
    library: "Mastra",
    api: "@mastra/rag MDocument.chunk({strategy: 'markdown'})",
    units: ["chars", "tokens"],
    semantics: "recursive merge on markdown separators (headers, code fences, rules) to maxSize, overlap as recursive",
  },
  {
    name: "mastra-sentence",
    library: "Mastra",
    api: "@mastra/rag MDocument.chunk({strategy: 'sentence'})",
    units: ["chars", "tokens"],
    semantics: "sentences packed to maxSize (target 80%); overlap made of whole trailing sentences up to `overlap`",
  },
  {
    name: "chonkie-recursive",
    library: "chonkie",
    api: "@chonkiejs/core RecursiveChunker",
    units: ["chars", "tokens"],
    ignoresOverlap: true,
    semantics:
      "chunkSize in characters (or js-tiktoken tokens we pass); paragraphs > sentences > " +
      "punctuation > words; RecursiveChunker has NO overlap option: configured overlap is ignored",
  },
  {
    name: "chonkie-sentence",
    library: "chonkie",
    api: "@chonkiejs/core SentenceChunker",
    units: ["chars", "tokens"],
    semantics:
      'sentences (delimiters ". ", "! ", "? ", newline) packed to chunkSize;' +
      " overlap made of whole trailing sentences up to chunkOverlap",
  },
  {
    name: "chonkie-token",
    library: "chonkie",
    api: "@chonkiejs/core TokenChunker",
    units: ["chars", "tokens"],
    semantics: "fixed window of chunkSize tokens (characters by default) stepping chunkSize - chunkOverlap",
  },
  {
    name: "langchain-character",
    library: "LangChain JS",
    api: "@langchain/textsplitters CharacterTextSplitter",
    units: ["chars", "tokens"],
    semantics:
      'splits on "\\n\\n" only and merges to chunkSize (longer paragraphs stay ' +
      "oversize); overlap of whole trailing paragraphs up to chunkOverlap",
  },
  {
    name: "langchain-token",
    library: "LangChain JS",
    api: "@langchain/textsplitters TokenTextSplitter",
    units: ["tokens"],
    semantics:
      "window of chunkSize tokens stepping chunkSize - chunkOverlap over the whole " +
      "text (encoder injected from js-tiktoken; LangChain's own would download ranks)",
  },
];

/** The library splitter closest to seamlab's `recursive`, per library (for bench:splitters). */
export const closestToRecursive: Record<string, string> = {
  "LlamaIndex TS": "llamaindex-sentence",
  Mastra: "mastra-recursive",
  chonkie: "chonkie-recursive",
  "LangChain JS": "langchain",
};

export function librarySplitter(name: string): LibrarySplitter | undefined {
  return librarySplitters.find((s) => s.name === name);
}

export function libraryOptionsFor(spec: LibrarySplitter, config: SplitterConfig): LibraryOptions {
  const unit = config.unit ?? (spec.units.length === 1 ? spec.units[0] : "chars");
  if (spec.units.indexOf(unit) < 0) {
    throw new SeamlabError(
      `--splitter ${spec.name} counts ${spec.units.join(" or ")} ` +
        `only; use --unit ${spec.units[0]} (got --unit ${unit})`,
    );
  }
  if (config.separators !== undefined) {
    throw new SeamlabError(`--splitter ${spec.name}: --separators is not supported (the library's own are used)`);
  }
  return { size: config.size, overlap: config.overlap, unit, encoding: config.encoding ?? defaultEncoding };
}

/** The chunks of one document by `spec`'s library, with spans located in the source. */
export function splitWithLibrary(spec: LibrarySplitter, doc: Doc, config: SplitterConfig): Chunk[] {
  const options = libraryOptionsFor(spec, config);
  if (doc.text.length === 0) return [];
  const { texts, anchors } = runLibrarySync(spec.name, doc.id, doc.text, options);
  return locateLibraryChunks(spec.name, doc, texts, anchors);
}
