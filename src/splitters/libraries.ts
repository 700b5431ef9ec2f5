// Registry entries for the real chunking libraries other teams use, run in a worker (`library-worker.mjs`) with a
// per-document timeout, at the versions pinned in package.json. Spans come from `locateLibraryChunks` (locate.ts);
// `text` stays what the library would embed.
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { defaultEncoding } from "../text/tokens";
import type { SplitterConfig, Unit } from "./config";
import { LibraryOptions, runLibrarySync } from "./library-bridge";
import { locateLibraryChunks } from "./locate";

export interface LibrarySplitter {
  /** Registry name, e.g. `llamaindex-sentence`. */
  name: string;
  /** The library family shown in tables ("LlamaIndex TS"), from the name's prefix. */
  library: string;
  /** The npm package and the class/function used. */
  api: string;
  /** Units the library can count `size`/`overlap` in (default both). */
  units: Unit[];
  /** What size and overlap mean in this library and what crosses a seam (shown by `--help`). */
  semantics: string;
  /** The library has no overlap: configured overlap is reported, realised is 0. */
  ignoresOverlap?: boolean;
}

const libraryOf: Record<string, string> = {
  llamaindex: "LlamaIndex TS",
  mastra: "Mastra",
  chonkie: "chonkie",
  langchain: "LangChain JS",
};

type Entry = Omit<LibrarySplitter, "library" | "units"> & Partial<Pick<LibrarySplitter, "units">>;

const entries: Entry[] = [
  {
    name: "llamaindex-sentence",
    api: "@llamaindex/core/node-parser SentenceSplitter",
    semantics:
      "chunkSize/chunkOverlap counted by its tokenizer (we pass one counting the " +
      "--unit); splits paragraph > sentence > word, merges up to size, then carries " +
      "whole trailing splits whose total fits in chunkOverlap; chunks are trimmed",
  },
  {
    name: "llamaindex-token",
    api: "@llamaindex/core/node-parser TokenTextSplitter",
    semantics:
      "splits on spaces (then newlines) and merges to chunkSize; " +
      "carries trailing splits up to chunkOverlap; chunks trimmed",
  },
  {
    name: "llamaindex-markdown",
    api: "@llamaindex/core/node-parser MarkdownNodeParser",
    ignoresOverlap: true,
    semantics:
      'one chunk per markdown header section, no size limit and no overlap; drops the "#" marks ' +
      'and embeds "Header_N: …" metadata lines before the text (spans map the section text)',
  },
  {
    name: "mastra-recursive",
    api: "@mastra/rag MDocument.chunk({strategy: 'recursive'})",
    semantics:
      "maxSize/overlap in the --unit (lengthFunction); LangChain-style recursive merge, overlap " +
      "made of whole trailing pieces up to `overlap`; pieces re-joined and whitespace stripped",
  },
  {
    name: "mastra-character",
    api: "@mastra/rag MDocument.chunk({strategy: 'character'})",
    semantics: 'splits on "\\n\\n" and merges to maxSize; overlap of whole trailing pieces up to `overlap`',
  },
  {
    name: "mastra-token",
    api: "@mastra/rag MDocument.chunk({strategy: 'token'})",
    units: ["tokens"],
    semantics:
      "js-tiktoken window of maxSize tokens stepping maxSize - overlap: neighbours share exactly `overlap` tokens",
  },
  {
    name: "mastra-markdown",
    api: "@mastra/rag MDocument.chunk({strategy: 'markdown'})",
    semantics: "recursive merge on markdown separators (headers, code fences, rules) to maxSize, overlap as recursive",
  },
  {
    name: "mastra-sentence",
    api: "@mastra/rag MDocument.chunk({strategy: 'sentence'})",
    semantics: "sentences packed to maxSize (target 80%); overlap made of whole trailing sentences up to `overlap`",
  },
  {
    name: "chonkie-recursive",
    api: "@chonkiejs/core RecursiveChunker",
    ignoresOverlap: true,
    semantics:
      "chunkSize in characters (or js-tiktoken tokens we pass); paragraphs > sentences > " +
      "punctuation > words; RecursiveChunker has NO overlap option: configured overlap is ignored",
  },
  {
    name: "chonkie-sentence",
    api: "@chonkiejs/core SentenceChunker",
    semantics:
      'sentences (delimiters ". ", "! ", "? ", newline) packed to chunkSize;' +
      " overlap made of whole trailing sentences up to chunkOverlap",
  },
  {
    name: "chonkie-token",
    api: "@chonkiejs/core TokenChunker",
    semantics: "fixed window of chunkSize tokens (characters by default) stepping chunkSize - chunkOverlap",
  },
  {
    name: "langchain-character",
    api: "@langchain/textsplitters CharacterTextSplitter",
    semantics:
      'splits on "\\n\\n" only and merges to chunkSize (longer paragraphs stay ' +
      "oversize); overlap of whole trailing paragraphs up to chunkOverlap",
  },
  {
    name: "langchain-token",
    api: "@langchain/textsplitters TokenTextSplitter",
    units: ["tokens"],
    semantics:
      "window of chunkSize tokens stepping chunkSize - chunkOverlap over the whole " +
      "text (encoder injected from js-tiktoken; LangChain's own would download ranks)",
  },
];

export const librarySplitters: LibrarySplitter[] = entries.map((entry) => ({
  library: libraryOf[entry.name.split("-")[0]],
  units: ["chars", "tokens"],
  ...entry,
}));

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
