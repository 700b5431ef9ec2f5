/**
 * The splitters by name, option validation, and splitting a whole corpus.
 *
 * One plain map: adding a splitter is one entry (`semantic` is added by its own module's owner).
 */
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { checkEncodingName } from "../text/tokens";
import type { SplitterConfig, Unit } from "./config";
import { libraryOptionsFor, librarySplitters, splitWithLibrary } from "./libraries";
import {
  LANGCHAIN_LANGUAGES,
  langchainFieldsFor,
  splitLangchain,
  splitLangchainAsync,
  splitLangchainMany,
} from "./langchain";
import { checkStructureConfig, splitStructure } from "./structure";
import { recursiveOptionsFor, splitRecursive } from "./recursive";
import { sentenceSeparators, splitSentences } from "./sentences";
import { splitTail } from "./tail";
import { splitTokens } from "./tokens";
import { prepareSemanticSplit, semanticOptionsFromConfig, splitSemanticPrepared } from "./semantic-prepared";
import { splitWindow } from "./window";
import { checkWindowWordsConfig, splitWindowWords } from "./window-words";

export type SplitFunction = (doc: Doc, config: SplitterConfig) => Chunk[];

export interface SplitterEntry {
  description: string;
  split: SplitFunction;
  /** Optional async implementation (preferred by splitDocAsync/splitCorpusAsync). */
  splitAsync?: (doc: Doc, config: SplitterConfig) => Promise<Chunk[]>;
  /** Optional batch implementation (one call for many docs; used by splitCorpus). */
  splitMany?: (docs: Doc[], config: SplitterConfig) => Chunk[][];
  /** Optional whole-corpus async implementation (used by splitCorpusAsync), for splitters that must see every doc. */
  splitCorpusAsync?: (docs: Doc[], config: SplitterConfig) => Promise<Chunk[]>;
  /** The one unit this splitter counts size and overlap in, whatever `config.unit` says (tokens: tokens). */
  fixedUnit?: Unit;
  /** Optional splitter-specific checks (throw SeamlabError), run by validateSplitterConfig. */
  validate?: (config: SplitterConfig) => void;
  /**
   * The helper thread the splitter runs its library in, started once per calling thread (the LangChain bridge, the
   * library worker): a grid keeps such configs on few threads so that few helpers start (see experiment/plan).
   */
  helperThread?: "langchain" | "library";
}

export const splitters: Record<string, SplitterEntry> = {
  window: {
    description: "sliding character window, step = size - overlap; neighbours share exactly `overlap` chars",
    split: splitWindow,
  },
  "window-words": {
    description: "sliding character window with both edges snapped back to word boundaries",
    split: splitWindowWords,
    validate: checkWindowWordsConfig,
  },
  langchain: {
    description: "the real @langchain/textsplitters RecursiveCharacterTextSplitter; spans by ordered search",
    split: splitLangchain,
    splitAsync: splitLangchainAsync,
    splitMany: splitLangchainMany,
    validate: (config) => void langchainFieldsFor(config),
    helperThread: "langchain",
  },
  recursive: {
    description: "seamlab's span-native port of LangChain Python 0.3 RecursiveCharacterTextSplitter",
    split: splitRecursive,
    validate: (config) => void recursiveOptionsFor(config),
  },
  sentences: {
    description: "recursive splitting on sentence ends first (then paragraph, line, word), so overlap is carried",
    split: splitSentences,
    validate: (config) => void recursiveOptionsFor(config, sentenceSeparators, true),
  },
  tail: {
    description:
      "recursive at overlap 0, each chunk prefixed with the previous chunk's last `overlap` chars (word-snapped)",
    split: splitTail,
    validate: (config) => void recursiveOptionsFor(config),
  },
  tokens: {
    description: "sliding window over js-tiktoken tokens; neighbours share exactly `overlap` tokens",
    split: splitTokens,
    fixedUnit: "tokens",
  },
  semantic: {
    description:
      "sentences grouped until neighbour similarity drops (embedder in extra.embedder, default lsa); async: use " +
      "splitCorpusAsync",
    split: splitSemanticPrepared,
    splitCorpusAsync: (docs, config) => prepareSemanticSplit(docs, config),
    validate: (config) => void semanticOptionsFromConfig(config),
  },

  structure: {
    description:
      "markdown sections first; code blocks, tables, FAQ pairs, turns kept whole up to a hard limit; TS/JS by " +
      "function/class; overlap only in long prose",
    split: splitStructure,
    validate: checkStructureConfig,
  },
};

for (const spec of librarySplitters) {
  splitters[spec.name] = {
    description: `${spec.api}: ${spec.semantics}`,
    split: (doc, config) => splitWithLibrary(spec, doc, config),
    validate: (config) => void libraryOptionsFor(spec, config),
    helperThread: "library",
    ...(spec.units.length === 1 ? { fixedUnit: spec.units[0] } : {}),
  };
}

// The real LangChain language presets, as comparison rows: `langchain-markdown` (MarkdownTextSplitter) and
// `langchain-<language>` (RecursiveCharacterTextSplitter.fromLanguage).
for (const language of LANGCHAIN_LANGUAGES) {
  splitters[`langchain-${language}`] = {
    description:
      language === "markdown"
        ? "the real LangChain MarkdownTextSplitter (markdown separators); spans by ordered search"
        : `the real LangChain RecursiveCharacterTextSplitter.fromLanguage("${language}"); spans by ordered search`,
    split: (doc, config) => splitLangchainMany([doc], config, language)[0],
    splitAsync: (doc, config) => splitLangchainAsync(doc, config, language),
    splitMany: (docs, config) => splitLangchainMany(docs, config, language),
    validate: (config) => void langchainFieldsFor(config, language),
    helperThread: "langchain",
  };
}

export const splitterNames: string[] = Object.keys(splitters);

function entryFor(name: string): SplitterEntry {
  const entry = Object.prototype.hasOwnProperty.call(splitters, name) ? splitters[name] : undefined;
  if (!entry) throw new SeamlabError(`unknown --splitter "${name}": use one of ${Object.keys(splitters).join(", ")}`);
  return entry;
}

/** The unit a config's size and overlap are really counted in. */
export function unitOf(config: SplitterConfig): Unit {
  return fixedUnitOf(config.splitter) ?? config.unit ?? "chars";
}

export function describeSplitter(name: string): string {
  return entryFor(name).description;
}

const units = ["chars", "tokens"];

/** The unit a splitter always counts in, or undefined when it follows `config.unit` (unknown names too). */
export function fixedUnitOf(name: string): Unit | undefined {
  return Object.prototype.hasOwnProperty.call(splitters, name) ? splitters[name].fixedUnit : undefined;
}

/** The helper thread a splitter starts in each thread that runs it (see SplitterEntry.helperThread), if any. */
export function helperThreadOf(name: string): SplitterEntry["helperThread"] {
  return Object.prototype.hasOwnProperty.call(splitters, name) ? splitters[name].helperThread : undefined;
}

/** Throws a SeamlabError naming the parameter when a config cannot be split with. */
export function validateSplitterConfig(config: SplitterConfig): void {
  entryFor(config.splitter);
  const { size, overlap } = config;
  if (typeof size !== "number" || !Number.isInteger(size) || size <= 0) {
    throw new SeamlabError(`--size (${size}) must be a positive integer`);
  }
  if (typeof overlap !== "number" || !Number.isInteger(overlap) || overlap < 0) {
    throw new SeamlabError(`--overlap (${overlap}) must be a non-negative integer`);
  }
  if (overlap >= size) {
    throw new SeamlabError(`--overlap (${overlap}) must be smaller than --size (${size})`);
  }
  if (config.unit !== undefined && units.indexOf(config.unit) < 0) {
    throw new SeamlabError(`unknown --unit "${config.unit}": use chars or tokens`);
  }
  const fixed = fixedUnitOf(config.splitter);
  // An unset unit means "the splitter's own"; a different unit set explicitly would label sizes wrongly.
  if (fixed !== undefined && config.unit !== undefined && config.unit !== fixed) {
    throw new SeamlabError(
      `--splitter ${config.splitter} always counts ${fixed}, but --unit is ${config.unit}; pass --unit ${fixed}.`,
    );
  }
  if (config.encoding !== undefined) checkEncodingName(config.encoding);
  if (config.separators !== undefined) {
    if (!Array.isArray(config.separators) || config.separators.some((s) => typeof s !== "string")) {
      throw new SeamlabError("--separators must be a list of strings");
    }
    if (config.separators.length === 0) throw new SeamlabError("--separators must not be empty");
  }
  const entry = entryFor(config.splitter);
  if (entry.validate) entry.validate(config);
}

/** The chunks of one document, in order. Validates the config first. */
export function splitDoc(doc: Doc, config: SplitterConfig): Chunk[] {
  validateSplitterConfig(config);
  return entryFor(config.splitter).split(doc, config);
}

/** The chunks of every document, in document order (then chunk order). */
export function splitCorpus(docs: Doc[], config: SplitterConfig): Chunk[] {
  validateSplitterConfig(config);
  const entry = entryFor(config.splitter);
  const out: Chunk[] = [];
  if (entry.splitMany) {
    for (const chunks of entry.splitMany(docs, config)) for (const c of chunks) out.push(c);
  } else {
    for (const doc of docs) for (const c of entry.split(doc, config)) out.push(c);
  }
  return out;
}

/** As splitDoc, through the splitter's async implementation when it has one. */
export async function splitDocAsync(doc: Doc, config: SplitterConfig): Promise<Chunk[]> {
  validateSplitterConfig(config);
  const entry = entryFor(config.splitter);
  return entry.splitAsync ? entry.splitAsync(doc, config) : entry.split(doc, config);
}

/** As splitCorpus, through the splitter's async implementation when it has one. */
export async function splitCorpusAsync(docs: Doc[], config: SplitterConfig): Promise<Chunk[]> {
  validateSplitterConfig(config);
  const entry = entryFor(config.splitter);
  if (entry.splitCorpusAsync) return entry.splitCorpusAsync(docs, config);
  const out: Chunk[] = [];
  for (const doc of docs) {
    const chunks = entry.splitAsync ? await entry.splitAsync(doc, config) : entry.split(doc, config);
    for (const c of chunks) out.push(c);
  }
  return out;
}
