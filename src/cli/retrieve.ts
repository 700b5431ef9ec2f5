import { parseArgs } from "node:util";
import { loadCorpus } from "../corpus/load";
import { loadLabelledSet, type LabelledReport } from "../corpus/labelled";
import type { Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import type { SplitterConfig, Unit } from "../splitters/config";
import { validateSplitterConfig } from "../splitters/registry";
import { buildHeaderQueries, type HeaderQuerySet } from "../retrieval/headerQueries";
import { summarizeOutcomes, type EvaluationOptions } from "../retrieval/evaluate";
import { evaluateSplitterConfig, type ConfigEvaluation } from "../retrieval/evaluateConfig";
import type { RetrieverSettings } from "../retrieval/factory";
import type { Query } from "../retrieval/types";
import type { Interval } from "../experiment/stats";
import { embedderFlags, embedderFlagsHelp, embedderSpecFromFlags } from "../embed/select";
import { intOption, numberOption, stringOption } from "./options";

export const summary =
  "Retrieval quality of one splitter config: hit rate@k, distinct passages, span recall/IoU (BM25 by default).";

/** Options shared by `retrieve` and `compare`. */
export const retrievalOptions = {
  corpus: { type: "string" },
  queries: { type: "string" },
  "question-headers-only": { type: "boolean" },
  "include-h3": { type: "boolean" },
  "gold-sentences": { type: "string" },
  "skip-malformed": { type: "boolean" },
  unit: { type: "string" },
  separators: { type: "string" },
  encoding: { type: "string" },
  k: { type: "string" },
  retriever: { type: "string" },
  k1: { type: "string" },
  "bm25-b": { type: "string" },
  stem: { type: "boolean" },
  "stop-words": { type: "boolean" },
  "near-duplicate-threshold": { type: "string" },
  seed: { type: "string" },
  "per-doc": { type: "boolean" },
  timings: { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ...embedderFlags,
} as const;

export const retrievalHelp = `  --corpus SPEC               folder, file, glob, default corpus name or npm:<pkg>/<glob> (default: fastify-docs;
                              not needed for a SQuAD .json, which brings its documents)
  --queries headers|FILE      header queries from ## headings (default), or a labelled set: .csv/.jsonl with
                              question,answer_span or Chroma's question,references,corpus_id; or SQuAD .json
  --question-headers-only     header queries: only headings ending in "?"
  --include-h3                header queries: use ### headings too
  --gold-sentences N          header queries: sentences of prose in the gold span (default 1)
  --skip-malformed            labelled sets: skip malformed rows (counted) instead of stopping
  --separators JSON           separators for the recursive family, e.g. Chroma's '["\\n\\n","\\n",".","?","!"," ",""]'
  --unit chars|tokens         unit of --size/--overlap (default chars); --encoding for tokens (default cl100k_base)
  --k N                       chunks retrieved per query (default 5)
  --retriever NAME            bm25 (default), dense (an embedder, below) or hybrid (BM25 + dense by RRF)
  --k1 X --bm25-b X --stem --stop-words   BM25 settings (defaults 1.2, 0.75, no stemming, no stop words)
  --near-duplicate-threshold X       term-set Jaccard for near-duplicates in the top-k (default 0.7)
  --seed N                    bootstrap seed (default 1)
  --timings                   also report seconds spent splitting, indexing and querying (varies run to run)
  --per-doc                   also break results down by the gold span's document
  --json                      print JSON
embedder (for --retriever dense|hybrid):
${embedderFlagsHelp}`;

type Values = Record<string, unknown>;

/** Queries and the documents to split (header queries strip heading lines from the docs). */
export interface EvaluationInputs {
  corpus: string;
  docs: Doc[];
  queries: Query[];
  source:
    | { kind: "headers"; headings: number; skipped: HeaderQuerySet["skipped"] }
    | { kind: "labelled"; report: LabelledReport };
}

/** Loads the corpus and builds or reads the queries named by the options. */
export function loadEvaluationInputs(values: Values): EvaluationInputs {
  const queriesSpec = stringOption(values, "queries", "headers");
  if (queriesSpec === "headers") {
    const corpus = stringOption(values, "corpus", "fastify-docs");
    const loaded = loadCorpus(corpus);
    const set = buildHeaderQueries(loaded.docs, {
      questionsOnly: Boolean(values["question-headers-only"]),
      includeH3: Boolean(values["include-h3"]),
      sentences: intOption(values, "gold-sentences", 1, { min: 1 }),
    });
    if (set.queries.length === 0) {
      throw new SeamlabError(
        `no header queries in corpus "${corpus}": it has ${set.headings} usable headings (see --include-h3, --question-headers-only).`,
      );
    }
    return {
      corpus,
      docs: set.docs,
      queries: set.queries,
      source: { kind: "headers", headings: set.headings, skipped: set.skipped },
    };
  }
  const isSquad = queriesSpec.toLowerCase().endsWith(".json");
  const corpus = isSquad && values.corpus === undefined ? queriesSpec : stringOption(values, "corpus");
  const docs = isSquad ? [] : loadCorpus(corpus).docs;
  const set = loadLabelledSet(queriesSpec, docs, { skipMalformed: Boolean(values["skip-malformed"]) });
  if (set.queries.length === 0)
    throw new SeamlabError(`no usable questions in ${queriesSpec}: ${JSON.stringify(set.report.notLocated)}.`);
  return { corpus, docs: set.docs, queries: set.queries, source: { kind: "labelled", report: set.report } };
}

function separatorsOption(raw: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((s) => typeof s === "string")) {
    throw new SeamlabError(
      `--separators must be a JSON list of strings, e.g. '["\\n\\n","\\n",".","?","!"," ",""]', got ${raw}.`,
    );
  }
  return parsed as string[];
}

/** The splitter config from --splitter/--size/--overlap/--unit/--encoding (validated). */
export function splitterConfigFrom(values: Values, overrides: Partial<SplitterConfig> = {}): SplitterConfig {
  const unit = stringOption(values, "unit", "chars");
  if (unit !== "chars" && unit !== "tokens") throw new SeamlabError(`--unit must be chars or tokens, got "${unit}".`);
  const config: SplitterConfig = {
    splitter: stringOption(values, "splitter", "langchain"),
    size: intOption(values, "size", 1000, { min: 1 }),
    overlap: intOption(values, "overlap", 200),
    unit: unit as Unit,
    ...overrides,
  };
  if (values.separators !== undefined) config.separators = separatorsOption(String(values.separators));
  if (config.unit === "tokens") config.encoding = overrides.encoding ?? stringOption(values, "encoding", "cl100k_base");
  validateSplitterConfig(config);
  return config;
}

export function evaluationOptionsFrom(
  values: Values,
): EvaluationOptions & { retriever: string; retrieverSettings: RetrieverSettings } {
  const settings: RetrieverSettings = {
    k1: numberOption(values, "k1", 1.2),
    b: numberOption(values, "bm25-b", 0.75),
    stem: Boolean(values.stem),
    stopWords: Boolean(values["stop-words"]),
  };
  const retriever = stringOption(values, "retriever", "bm25");
  if (retriever === "dense" || retriever === "hybrid") settings.embedder = embedderSpecFromFlags(values);
  return {
    k: intOption(values, "k", 5, { min: 1 }),
    nearDuplicateThreshold: numberOption(values, "near-duplicate-threshold", 0.7),
    seed: intOption(values, "seed", 1),
    retriever,
    retrieverSettings: settings,
  };
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const ci = (interval: Interval) => `[${percent(interval.low)}, ${percent(interval.high)}]`;

/** The JSON `retrieve` prints: the summary flattened with config, corpus and query provenance. */
export function retrievalReport(
  inputs: EvaluationInputs,
  evaluation: ConfigEvaluation,
  perDoc: boolean,
  options: EvaluationOptions,
  timings = false,
) {
  const { summary: s } = evaluation;
  const report: Record<string, unknown> = {
    corpus: inputs.corpus,
    queriesFrom: inputs.source,
    config: evaluation.config,
    indexRatio: evaluation.indexRatio,
    ...s,
    spanMetrics:
      "spanRecall/spanPrecision/iou count overlapping retrieved text once (merged); chroma.* counts it twice, as Chroma's evaluation does",
  };
  // off by default: the rest of the report is byte-identical from run to run
  if (timings) report.timings = evaluation.timings;
  if (perDoc) {
    const groups = new Map<string, typeof evaluation.outcomes>();
    evaluation.outcomes.forEach((outcome, i) => {
      const doc = inputs.queries[i].gold[0]?.doc ?? "";
      if (!groups.has(doc)) groups.set(doc, []);
      groups.get(doc)!.push(outcome);
    });
    report.perDoc = Object.fromEntries(
      [...groups.keys()]
        .sort()
        .map((doc) => [
          doc,
          summarizeOutcomes(groups.get(doc)!, { retriever: s.retriever, k: s.k, chunks: s.chunks }, options),
        ]),
    );
  }
  return report;
}

function printText(inputs: EvaluationInputs, evaluation: ConfigEvaluation, timings: boolean): void {
  const s = evaluation.summary;
  const c = evaluation.config;
  const lines = [
    `corpus ${inputs.corpus}: ${inputs.docs.length} docs, ${s.queries} queries (${inputs.source.kind})`,
    `config ${c.splitter} ${c.size}/${c.overlap} ${c.unit ?? "chars"}: ${s.chunks} chunks, index ${evaluation.indexRatio.toFixed(2)}x the corpus`,
    `retriever ${s.retriever}, k=${s.k}`,
    `hit rate@${s.k}            ${percent(s.hitRate)}  95% CI ${ci(s.hitRateCI)}  (${s.hits}/${s.queries})`,
    `recall@${s.k}              ${percent(s.recallAtK)}  95% CI ${ci(s.recallAtKCI)}  (mean share of a query's gold spans fully inside a top-${s.k} chunk)`,
    `distinct passages      ${s.meanDistinct.toFixed(2)} of ${s.k}  95% CI [${s.meanDistinctCI.low.toFixed(2)}, ${s.meanDistinctCI.high.toFixed(2)}]`,
    `overlapping top-${s.k}     ${percent(s.queriesWithOverlappingTopK)}  95% CI ${ci(s.queriesWithOverlappingTopKCI)} of queries`,
    `near-duplicates        ${percent(s.nearDuplicateRatio)} of retrieved chunks (Jaccard >= ${s.nearDuplicateThreshold})`,
    `span recall/precision/IoU, overlap counted once:  ${percent(s.spanRecall)} / ${percent(s.spanPrecision)} / ${percent(s.iou)}`,
    `span recall/precision/IoU, Chroma's way (twice): ${percent(s.chroma.spanRecall)} / ${percent(s.chroma.spanPrecision)} / ${percent(s.chroma.iou)}`,
  ];
  if (inputs.source.kind === "headers") lines.push(`skipped headings: ${JSON.stringify(inputs.source.skipped)}`);
  else {
    const r = inputs.source.report;
    lines.push(
      `labelled set: ${r.rows} rows, ${r.queries} queries, not located ${JSON.stringify(r.notLocated)}, offsets corrected ${r.offsetsCorrected}, ambiguous ${r.ambiguous}, malformed skipped ${r.skippedMalformed}`,
    );
  }
  if (timings)
    lines.push(
      `time: split ${evaluation.timings.split.toFixed(2)} s, index ${evaluation.timings.index.toFixed(2)} s, queries ${evaluation.timings.query.toFixed(2)} s`,
    );
  process.stdout.write(lines.join("\n") + "\n");
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...retrievalOptions,
      splitter: { type: "string" },
      size: { type: "string" },
      overlap: { type: "string" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      `Usage: seamlab retrieve [--corpus SPEC] [--queries headers|FILE] --splitter NAME --size N --overlap N [--k 5] [--json]\n\n` +
        `  --splitter NAME --size N --overlap N   the config (defaults langchain 1000/200)\n${retrievalHelp}\n`,
    );
    return 0;
  }
  const config = splitterConfigFrom(values);
  const options = evaluationOptionsFrom(values);
  const inputs = loadEvaluationInputs(values);
  const evaluation = await evaluateSplitterConfig(inputs.docs, inputs.queries, config, options);
  if (values.json)
    process.stdout.write(
      JSON.stringify(
        retrievalReport(inputs, evaluation, Boolean(values["per-doc"]), options, Boolean(values.timings)),
        null,
        2,
      ) + "\n",
    );
  else printText(inputs, evaluation, Boolean(values.timings));
  return 0;
}
