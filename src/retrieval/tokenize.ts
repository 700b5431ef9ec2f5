import { stemmer } from "stemmer"; // ESM, but Node >= 20.19 require()s it too: tslab notebooks load this file
import { lowerTermRuns } from "../text/term-runs";

/**
 * How text becomes index terms, for BM25 and near-duplicate Jaccard: lowercase (locale-independent); a term is a
 * maximal run of Unicode letters or digits (`otel_exporter` -> `otel`, `exporter`; combining marks separate, so
 * feed NFC text); then optionally drop `stopWords` and Porter-stem (`stemmer`) what remains.
 */
export interface TokenizerOptions {
  stopWords?: ReadonlySet<string>;
  stem?: boolean;
}

/** One lowercased run's index term, or null for a stop word. */
export function indexTerm(run: string, options: TokenizerOptions): string | null {
  if (options.stopWords && options.stopWords.has(run)) return null;
  return options.stem ? stemmer(run) : run;
}

export function tokenize(text: string, options: TokenizerOptions = {}): string[] {
  const terms = lowerTermRuns(text.toLowerCase());
  if (!options.stopWords && !options.stem) return terms;
  const out: string[] = [];
  for (const run of terms) {
    const term = indexTerm(run, options);
    if (term !== null) out.push(term);
  }
  return out;
}

export function describeTokenizer(options: TokenizerOptions = {}): string {
  const parts = ["lower", "letters+digits"];
  if (options.stopWords) parts.push(`stop(${options.stopWords.size})`);
  if (options.stem) parts.push("porter");
  return parts.join(",");
}

/** Tokenizer settings as a key, for memos: equal keys tokenize alike. */
export function tokenizerKey(options: TokenizerOptions): string {
  return JSON.stringify([!!options.stem, options.stopWords ? [...options.stopWords].sort() : null]);
}

/** A small English stop-word list (function words only), for `stopWords`. */
export const englishStopWords: ReadonlySet<string> = new Set(
  (
    "a an and are as at be but by for from has have he her his i if in into is it its me my no not of on or our " +
    "she so than that the their them then there these they this to was we were what when where which who why " +
    "will with you your do does did how can could should would about"
  ).split(" "),
);
