import { stemmer } from "stemmer";

/**
 * How text becomes index terms, for BM25 and for near-duplicate Jaccard.
 *
 * 1. Lowercase with `String.prototype.toLowerCase` (Unicode case mapping, locale-independent).
 * 2. Terms are maximal runs of Unicode letters or digits (`[\p{L}\p{N}]+`); everything else separates
 *    (so `otel_exporter` -> `otel`, `exporter`; `don't` -> `don`, `t`). Combining marks separate too, so
 *    feed NFC text (Node's file reading keeps what the file holds; our corpora are NFC).
 * 3. Optional: drop stop words (`stopWords`: a set of lowercase words; `englishStopWords` below is a
 *    small list) — applied before stemming.
 * 4. Optional: Porter stemming (the `stemmer` package, Porter 1980) on each remaining term.
 *
 * `stemmer` is an ES module; Node >= 20.19 loads it through `require()` too, so this file also works from
 * tslab notebooks.
 */
export interface TokenizerOptions {
  stopWords?: ReadonlySet<string>;
  stem?: boolean;
}

/** Rule 2: a term is a maximal run of letters or digits (global: copy it before `exec` loops of your own). */
export const TERM = /[\p{L}\p{N}]+/gu;

/** Rules 3 and 4 for one lowercased run of letters or digits: its index term, or null for a stop word. */
export function indexTerm(run: string, options: TokenizerOptions): string | null {
  if (options.stopWords && options.stopWords.has(run)) return null;
  return options.stem ? stemmer(run) : run;
}

/** Splits text into index terms following the rules above. */
export function tokenize(text: string, options: TokenizerOptions = {}): string[] {
  const terms = text.toLowerCase().match(TERM);
  if (terms === null) return [];
  if (!options.stopWords && !options.stem) return terms;
  const out: string[] = [];
  for (const run of terms) {
    const term = indexTerm(run, options);
    if (term !== null) out.push(term);
  }
  return out;
}

/** Describes the tokenizer settings in one short string, for a retriever's `name`. */
export function describeTokenizer(options: TokenizerOptions = {}): string {
  const parts = ["lower", "letters+digits"];
  if (options.stopWords) parts.push(`stop(${options.stopWords.size})`);
  if (options.stem) parts.push("porter");
  return parts.join(",");
}

/** A small English stop-word list (function words only), for `stopWords`. */
export const englishStopWords: ReadonlySet<string> = new Set(
  (
    "a an and are as at be but by for from has have he her his i if in into is it its me my no not of on or our " +
    "she so than that the their them then there these they this to was we were what when where which who why " +
    "will with you your do does did how can could should would about"
  ).split(" "),
);
