/** The splitters by name (adding one is one entry), option validation, and splitting a whole corpus. */
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { checkEncodingName } from "../text/tokens";
import type { SplitterConfig, Unit } from "./config";
import { libraryOptionsFor, librarySplitters, splitWithLibrary } from "./libraries";
import { LANGCHAIN_LANGUAGES, langchainFieldsFor, splitLangchainAsync, splitLangchainMany } from "./langchain";
import { splitStructure, structureOptionsFor } from "./structure";
import { recursiveOptionsFor, sentenceSeparators, splitRecursive, splitSentences, splitTail } from "./recursive";
import { prepareSemanticSplit, semanticOptionsFromConfig, splitSemanticPrepared } from "./semantic-prepared";
import { splitTokens, splitWindow } from "./window";
import { checkWindowWordsConfig, splitWindowWords } from "./window-words";

export interface SplitterEntry {
  description: string;
  split: (doc: Doc, config: SplitterConfig) => Chunk[];
  /** Preferred by splitDocAsync/splitCorpusAsync. */
  splitAsync?: (doc: Doc, config: SplitterConfig) => Promise<Chunk[]>;
  /** One call for many docs (splitCorpus). */
  splitMany?: (docs: Doc[], config: SplitterConfig) => Chunk[][];
  /** For splitters that must see every doc (splitCorpusAsync). */
  splitCorpusAsync?: (docs: Doc[], config: SplitterConfig) => Promise<Chunk[]>;
  /** The one unit this splitter counts in, whatever `config.unit` says. */
  fixedUnit?: Unit;
  /** Splitter-specific checks (throw SeamlabError). */
  validate?: (config: SplitterConfig) => void;
  /** The helper thread it starts once per calling thread: a grid keeps such configs on few threads (experiment/plan). */
  helperThread?: "langchain" | "library";
}

/** The real LangChain splitter: RecursiveCharacterTextSplitter, or a language preset. */
function langchainEntry(language?: string): SplitterEntry {
  const what =
    language === undefined
      ? "@langchain/textsplitters RecursiveCharacterTextSplitter"
      : language === "markdown"
        ? "LangChain MarkdownTextSplitter (markdown separators)"
        : `LangChain RecursiveCharacterTextSplitter.fromLanguage("${language}")`;
  return {
    description: `the real ${what}; spans by ordered search`,
    split: (doc, config) => splitLangchainMany([doc], config, language)[0],
    splitAsync: (doc, config) => splitLangchainAsync(doc, config, language),
    splitMany: (docs, config) => splitLangchainMany(docs, config, language),
    validate: (config) => void langchainFieldsFor(config, language),
    helperThread: "langchain",
  };
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
  langchain: langchainEntry(),
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
    validate: (config) => void structureOptionsFor(config),
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

for (const language of LANGCHAIN_LANGUAGES) splitters[`langchain-${language}`] = langchainEntry(language);

export const splitterNames: string[] = Object.keys(splitters);

/** The entry of a name (undefined for unknown names, `__proto__` too). */
const own = (name: string) => (Object.prototype.hasOwnProperty.call(splitters, name) ? splitters[name] : undefined);

function entryFor(name: string): SplitterEntry {
  const entry = own(name);
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

/** The unit a splitter always counts in, or undefined when it follows `config.unit` (unknown names too). */
export function fixedUnitOf(name: string): Unit | undefined {
  return own(name)?.fixedUnit;
}

/** The helper thread a splitter starts in each thread that runs it (see SplitterEntry.helperThread), if any. */
export function helperThreadOf(name: string): SplitterEntry["helperThread"] {
  return own(name)?.helperThread;
}

/** The config's splitter; a SeamlabError naming the parameter when the config cannot be split with. */
export function validateSplitterConfig(config: SplitterConfig): SplitterEntry {
  const entry = entryFor(config.splitter);
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
  if (config.unit !== undefined && config.unit !== "chars" && config.unit !== "tokens") {
    throw new SeamlabError(`unknown --unit "${config.unit}": use chars or tokens`);
  }
  const fixed = entry.fixedUnit;
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
  entry.validate?.(config);
  return entry;
}

/** The chunks of one document, in order. Validates the config first. */
export function splitDoc(doc: Doc, config: SplitterConfig): Chunk[] {
  return validateSplitterConfig(config).split(doc, config);
}

/** The chunks of every document, in document order (then chunk order). */
export function splitCorpus(docs: Doc[], config: SplitterConfig): Chunk[] {
  const entry = validateSplitterConfig(config);
  return (entry.splitMany ? entry.splitMany(docs, config) : docs.map((doc) => entry.split(doc, config))).flat();
}

/** As splitDoc, through the splitter's async implementation when it has one. */
export async function splitDocAsync(doc: Doc, config: SplitterConfig): Promise<Chunk[]> {
  const entry = validateSplitterConfig(config);
  return entry.splitAsync ? entry.splitAsync(doc, config) : entry.split(doc, config);
}

/** As splitCorpus, through the splitter's async implementation when it has one. */
export async function splitCorpusAsync(docs: Doc[], config: SplitterConfig): Promise<Chunk[]> {
  const entry = validateSplitterConfig(config);
  if (entry.splitCorpusAsync) return entry.splitCorpusAsync(docs, config);
  const perDoc: Chunk[][] = [];
  for (const doc of docs)
    perDoc.push(entry.splitAsync ? await entry.splitAsync(doc, config) : entry.split(doc, config));
  return perDoc.flat();
}
