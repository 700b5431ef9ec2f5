/** `recursive`: our span-native port of LangChain Python 0.3.x RecursiveCharacterTextSplitter (see recursive-core). */
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { defaultEncoding, lengthFunctionFor } from "../text/tokens";
import type { SplitterConfig } from "./config";
import { KeepSeparator, RecursiveOptions, splitRecursiveWith } from "./recursive-core";

const defaultSeparators: string[] = ["\n\n", "\n", " ", ""];

/** `extra.keepSeparator` (default true, as LangChain's RecursiveCharacterTextSplitter). */
function keepSeparatorOf(config: SplitterConfig): KeepSeparator {
  const value = config.extra?.keepSeparator;
  if (value === undefined) return true;
  if (value === true || value === false || value === "start" || value === "end") return value;
  throw new SeamlabError(`keepSeparator must be true, false, "start" or "end" (got ${JSON.stringify(value)})`);
}

/** The RecursiveOptions a config means; `separators`/`isRegex` default to the given set. */
export function recursiveOptionsFor(
  config: SplitterConfig,
  fallbackSeparators: string[] = defaultSeparators,
  fallbackIsRegex = false,
): RecursiveOptions {
  const unit = config.unit ?? "chars";
  const separators = config.separators ?? fallbackSeparators;
  const isSeparatorRegex = config.separators ? config.separatorsAreRegex === true : fallbackIsRegex;
  if (isSeparatorRegex) {
    for (const s of separators) {
      try {
        new RegExp(s, "g");
      } catch (error) {
        throw new SeamlabError(
          `--separators: ${JSON.stringify(s)} is not a valid regular expression (${(error as Error).message})`,
        );
      }
    }
  }
  return {
    size: config.size,
    overlap: config.overlap,
    separators,
    isSeparatorRegex,
    keepSeparator: keepSeparatorOf(config),
    stripWhitespace: config.extra?.stripWhitespace !== false,
    length: lengthFunctionFor(unit, config.encoding ?? defaultEncoding),
    lengthIsChars: unit === "chars",
    langchainJsCompat: config.extra?.langchainJsCompat === true,
  };
}

export function splitRecursive(doc: Doc, config: SplitterConfig): Chunk[] {
  return splitRecursiveWith(doc, recursiveOptionsFor(config));
}
