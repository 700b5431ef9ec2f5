/** Flag groups several commands share (corpus, splitter config, retrieval inputs and settings). */
import { totalChars } from "../core/types";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { SeamlabError } from "../core/errors";
import { defaultCacheDir } from "../experiment/cache";
import { defaultCorpus } from "../corpus/defaults";
import { loadCorpus, type LoadedCorpus } from "../corpus/load";
import { isSquadFile, loadCorpusAndQueries, type EvaluationInputs } from "../retrieval/inputs";
import type { IctOptions } from "../retrieval/ict-queries";
import {
  DEFAULT_HEADING_LEVELS,
  headingMarks,
  parseHeadingLevels,
  type HeaderQueryOptions,
} from "../retrieval/header-queries";
import { parseQuerySample, type QuerySampleRequest } from "../retrieval/query-sample";
import { embedderFlags, embedderFlagsHelp, embedderSpecFromFlags } from "../embed/select";
import type { RetrieverSettings } from "../retrieval/types";
import type { SplitterConfig, Unit } from "../splitters/config";
import { fixedUnitOf, validateSplitterConfig } from "../splitters/registry";
import {
  choiceFlag,
  commaList,
  flagOptions,
  intFlag,
  LIMITS,
  optionalIntFlag,
  numberFlag,
  refuseTogether,
  stringFlag,
  type FlagValues,
  type NumberBounds,
} from "./flags";
import { thousands } from "../stats/format";

export const splitFlags = flagOptions(["corpus", "splitter", "size", "overlap", "unit", "encoding"], ["json"]);

export const splitFlagsHelp = `  --corpus PATH      folder, file, glob, default corpus name (moby-dick, fastify-docs) \
or npm:<pkg>/<path>
                     (default: the prose default corpus, moby-dick)
  --splitter NAME    splitter name (default langchain); see the list below
  --size N           chunk size in --unit, 1 to ${thousands(LIMITS.size)} (default 1000)
  --overlap N        nominal chunk overlap in --unit, below --size (default 200)
  --unit U           chars | tokens (default chars; the tokens splitter always counts tokens)
  --encoding E       js-tiktoken encoding for token units (default cl100k_base)
  --json             print JSON instead of a table`;

export function corpusSpecFromFlags(values: FlagValues): string {
  return values.corpus === undefined ? defaultCorpus("prose") : stringFlag(values, "corpus");
}

export function corpusFromFlags(values: FlagValues): { spec: string; corpus: LoadedCorpus } {
  const spec = corpusSpecFromFlags(values);
  return { spec, corpus: loadCorpus(spec) };
}

/** `--cache-dir` (default .seamlab-cache/ in the project root), refused when it names a file. */
export function cacheDirFromFlags(values: FlagValues): string {
  if (values["cache-dir"] === undefined) return defaultCacheDir();
  const dir = resolve(stringFlag(values, "cache-dir"));
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new SeamlabError(`--cache-dir ${dir} is a file; give a folder for the cache (it is created if missing).`);
  return dir;
}

export function sizeBounds(unit: Unit, min: number): NumberBounds {
  return { min, max: LIMITS.size, unit };
}

/** --unit, --size and --overlap of `libraries` and `compare-splitters`: 1000/200 chars or 400/80 tokens by default. */
export function settingFromFlags(values: FlagValues): { unit: Unit; size: number; overlap: number } {
  const unit = choiceFlag<Unit>(values, "unit", ["chars", "tokens"], "chars");
  return {
    unit,
    size: intFlag(values, "size", unit === "tokens" ? 400 : 1000, sizeBounds(unit, 1)),
    overlap: intFlag(values, "overlap", unit === "tokens" ? 80 : 200, sizeBounds(unit, 0)),
  };
}

export function splitterListFromFlags(values: FlagValues): string[] | undefined {
  if (values.splitters === undefined) return undefined;
  const names = commaList(stringFlag(values, "splitters"));
  if (names.length === 0) throw new SeamlabError("--splitters must name at least one splitter.");
  return names;
}

/** The unit of --size/--overlap: --unit, else the unit the splitter always counts in, else chars. */
export function unitFromFlags(values: FlagValues, splitters: readonly string[]): Unit {
  const fixed = [...new Set(splitters.map(fixedUnitOf).filter((u): u is Unit => u !== undefined))];
  const unit = choiceFlag<Unit>(values, "unit", ["chars", "tokens"], fixed[0] ?? "chars");
  for (const splitter of splitters) {
    const own = fixedUnitOf(splitter);
    if (own !== undefined && own !== unit)
      throw new SeamlabError(
        `--splitter ${splitter} always counts ${own}, but --unit is ${unit}; pass --unit ${own} (or leave --unit out).`,
      );
  }
  refuseEncodingForChars(values, unit);
  return unit;
}

export function refuseEncodingForChars(values: FlagValues, unit: Unit): void {
  if (unit === "chars" && values.encoding !== undefined)
    throw new SeamlabError(`--encoding applies to token units only; add --unit tokens or drop --encoding.`);
}

function separatorsFlag(raw: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((s) => typeof s === "string"))
    throw new SeamlabError(
      `--separators must be a JSON list of strings, e.g. '["\\n\\n","\\n",".","?","!"," ",""]', got ${raw}.`,
    );
  return parsed as string[];
}

export function splitterConfigFromFlags(values: FlagValues, overrides: Partial<SplitterConfig> = {}): SplitterConfig {
  const splitter = overrides.splitter ?? stringFlag(values, "splitter", "langchain");
  const unit = overrides.unit ?? unitFromFlags(values, [splitter]);
  const config: SplitterConfig = {
    splitter,
    size: intFlag(values, "size", 1000, sizeBounds(unit, 1)),
    overlap: intFlag(values, "overlap", 200, sizeBounds(unit, 0)),
    unit,
    ...overrides,
  };
  if (values.separators !== undefined) config.separators = separatorsFlag(String(values.separators));
  if (config.unit === "tokens") config.encoding = overrides.encoding ?? stringFlag(values, "encoding", "cl100k_base");
  validateSplitterConfig(config);
  return config;
}

/** `langchain 1000/200 chars` */
export function describeConfig(config: SplitterConfig): string {
  const encoding = config.unit === "tokens" && config.encoding ? ` ${config.encoding}` : "";
  return `${config.splitter} ${config.size}/${config.overlap} ${config.unit ?? "chars"}${encoding}`;
}

/** The corpus line of every report: name, docs, chars, skipped files. */
export function describeCorpus(spec: string, corpus: LoadedCorpus): string {
  const chars = totalChars(corpus.docs);
  return describeCorpusCounts(spec, { ...corpus, docs: corpus.docs.length, chars });
}

/** The corpus line from counts, for a corpus read as a stream. */
export function describeCorpusCounts(
  spec: string,
  corpus: { docs: number; chars: number; skippedEmpty: number; skippedSpecial?: number },
): string {
  const skipped =
    (corpus.skippedEmpty ? `, ${thousands(corpus.skippedEmpty)} empty skipped` : "") +
    (corpus.skippedSpecial
      ? `, ${thousands(corpus.skippedSpecial)} not regular files skipped (FIFOs, sockets, dangling links)`
      : "");
  return `${spec} (${thousands(corpus.docs)} docs, ${thousands(corpus.chars)} chars${skipped})`;
}

export const ictFlags = flagOptions(["ict-n", "ict-seed", "ict-context"], ["ict-keep"]);

const ICT_HELP: [string, string][] = [
  ["--ict-n N", "ICT queries: sentences to sample, 1 to 100,000 (default 500, or all usable when fewer)"],
  ["--ict-seed N", "ICT queries: sampling seed (default 1)"],
  ["--ict-context N", "ICT queries: sentences of context each side that must sit in one chunk, 1 to 10 (default 1)"],
  ["--ict-keep", "ICT queries: keep the query sentence in the indexed text (default: removed)"],
];

export function ictFlagsHelp(column = 25): string {
  return ICT_HELP.map(([flag, text]) => `  ${flag.padEnd(column - 2)}${text}`).join("\n");
}

export function ictOptionsFrom(values: FlagValues): IctOptions {
  return {
    n: optionalIntFlag(values, "ict-n", { min: 1, max: 100_000, unit: "queries" }),
    seed: intFlag(values, "ict-seed", 1, { min: 0, max: LIMITS.seed }),
    contextSentences: intFlag(values, "ict-context", 1, { min: 1, max: 10, unit: "sentences" }),
    keepSentence: Boolean(values["ict-keep"]),
  };
}

export const retrievalFlags = {
  ...flagOptions(
    ["corpus", "queries", "heading-levels", "gold-sentences", "query-sample", "unit", "separators", "encoding", "k"],
    ["question-headers-only", "include-h3", "skip-malformed", "stem", "stop-words", "per-doc", "timings", "json"],
  ),
  ...flagOptions(["retriever", "k1", "bm25-b", "near-duplicate-threshold", "seed"]),
  ...ictFlags,
  ...embedderFlags,
};

export const retrievalHelp = `  --corpus SPEC               folder, file, glob, default corpus name or \
npm:<pkg>/<glob> (default: fastify-docs,
                              moby-dick for --queries ict; not with a SQuAD .json, which brings its own documents)
  --queries headers|ict|FILE  header queries (default; see --heading-levels); ict: inverse-cloze queries from any prose
                              (a sampled sentence is the query, its neighbouring sentences the gold span: a hit
                              needs both in one top-k chunk); or a labelled set: .csv/.jsonl with
                              question,answer_span or Chroma's question,references,corpus_id; or SQuAD .json
  --question-headers-only     header queries: only headings ending in "?"
  --heading-levels LIST       header queries: the heading levels that give queries, 2 to 6 (default \
${DEFAULT_HEADING_LEVELS.join(",")}: ${headingMarks()},
                              as in the report); --include-h3 is the same as 2,3
  --gold-sentences N          header queries: sentences of prose in the gold span, 1 to 100 (default 1)
  --skip-malformed            labelled sets: skip malformed rows (counted) instead of stopping
  --query-sample auto|N|all   queries that run (the corpus is always indexed whole): auto (default) runs them all up
                              to 1,537, else a seeded sample of 1,537 (any hit rate's 95% CI within ±2.5 points);
                              auto:H for a half-width H (e.g. auto:0.01); N queries; or all
${ictFlagsHelp(30)}
  --separators JSON           separators for the recursive family, e.g. Chroma's '["\\n\\n","\\n",".","?","!"," ",""]'
  --unit chars|tokens         unit of --size/--overlap (default chars); --encoding for tokens (default cl100k_base)
  --k N                       chunks retrieved per query, 1 to ${thousands(LIMITS.k)} (default 5)
  --retriever NAME            bm25 (default), dense (an embedder, below) or hybrid (BM25 + dense by RRF)
  --k1 X --bm25-b X --stem --stop-words   BM25 settings: k1 0 to 10 (default 1.2), b 0 to 1 (default 0.75),
                              no stemming, no stop words
  --near-duplicate-threshold X       term-set Jaccard for near-duplicates in the top-k, 0 to 1 (default 0.7)
  --seed N                    bootstrap seed, 0 to ${thousands(LIMITS.seed)} (default 1)
  --timings                   also report seconds spent splitting, indexing and querying (varies run to run)
  --per-doc                   also break results down by the query's document
  --json                      print JSON
embedder (for --retriever dense|hybrid):
${embedderFlagsHelp}`;

export function querySampleFromFlags(values: FlagValues): QuerySampleRequest {
  return parseQuerySample(values["query-sample"] === undefined ? undefined : String(values["query-sample"]));
}

/** Header query settings; --include-h3 (from when the default was `##` alone) means 2,3. */
export function headerOptionsFrom(values: FlagValues): HeaderQueryOptions {
  refuseTogether(values, "heading-levels", "include-h3", "--include-h3 means --heading-levels 2,3: give one of them.");
  return {
    questionsOnly: Boolean(values["question-headers-only"]),
    headingLevels:
      values["heading-levels"] === undefined
        ? values["include-h3"]
          ? [2, 3]
          : DEFAULT_HEADING_LEVELS
        : parseHeadingLevels(stringFlag(values, "heading-levels")),
    sentences: intFlag(values, "gold-sentences", 1, { min: 1, max: 100, unit: "sentences" }),
  };
}

/** Checks the flags loadEvaluationInputs reads, without loading anything (call before expensive work). */
export function checkEvaluationInputFlags(values: FlagValues): void {
  querySampleFromFlags(values);
  const queriesSpec = stringFlag(values, "queries", "headers");
  if (queriesSpec === "headers") headerOptionsFrom(values);
  else if (queriesSpec === "ict") ictOptionsFrom(values);
  else if (isSquadFile(queriesSpec))
    refuseTogether(values, "corpus", "queries", `the SQuAD file ${queriesSpec} brings its own documents.`);
}

export function loadEvaluationInputs(values: FlagValues): EvaluationInputs {
  checkEvaluationInputFlags(values);
  const queries = stringFlag(values, "queries", "headers");
  const builtIn = { headers: "fastify-docs", ict: "moby-dick" } as Record<string, string>;
  return loadCorpusAndQueries({
    corpus: builtIn[queries] ? stringFlag(values, "corpus", builtIn[queries]) : (values.corpus as string | undefined),
    queries,
    ict: queries === "ict" ? ictOptionsFrom(values) : undefined,
    headers: headerOptionsFrom(values),
    skipMalformed: Boolean(values["skip-malformed"]),
    querySample: querySampleFromFlags(values),
  });
}

export function evaluationOptionsFrom(values: FlagValues) {
  const settings: RetrieverSettings = {
    k1: numberFlag(values, "k1", 1.2, { min: 0, max: 10 }),
    b: numberFlag(values, "bm25-b", 0.75, { min: 0, max: 1 }),
    stem: Boolean(values.stem),
    stopWords: Boolean(values["stop-words"]),
  };
  const retriever = stringFlag(values, "retriever", "bm25");
  if (retriever === "dense" || retriever === "hybrid") settings.embedder = embedderSpecFromFlags(values);
  return {
    k: intFlag(values, "k", 5, { min: 1, max: LIMITS.k, unit: "chunks" }),
    nearDuplicateThreshold: numberFlag(values, "near-duplicate-threshold", 0.7, { min: 0, max: 1 }),
    seed: intFlag(values, "seed", 1, { min: 0, max: LIMITS.seed }),
    retriever,
    retrieverSettings: settings,
  };
}
