// Labelled evaluation (notebook 05): recall@k and span IoU per config from a labelled file, a paired
// comparison of two configs on the same questions, and one config under BM25, dense (lsa) and hybrid retrieval.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Doc, Query } from "../core/types";
import { sha256 } from "../experiment/cache";
import { pairedComparison, type PairedComparison } from "../stats/paired";
import {
  evaluateRetriever,
  evaluateSplitterConfig,
  type ConfigEvaluation as SplitterEvaluation,
} from "../retrieval/evaluate-config";
import { createRetriever } from "../retrieval/factory";
import { createHybridRetriever } from "../retrieval/hybrid";
import type { Retriever } from "../retrieval/types";
import { splitCorpusAsync } from "../splitters/registry";
import type { SplitterConfig } from "../splitters/config";
import { loadLabelledSet } from "../corpus/labelled";
import type { LabelledReport, LabelledSet } from "../corpus/types";
import { loadRetrievalInputs } from "./inputs";
import { isLabelledSpec } from "../retrieval/query-source";
import { headingMarks } from "../retrieval/header-queries";
import { lsaSpec } from "./dense";
import { points, pointsInterval } from "./format";
import { formatP, thousands } from "../stats/format";

/**
 * Writes queries with one gold span each as an answer-span JSONL file (`{question, answer_span, doc}` per
 * line) in `dir`, the shape a user's own labelled file takes, and returns its path (named by its content hash).
 */
export function writeAnswerSpanJsonl(docs: readonly Doc[], queries: readonly Query[], dir: string): string {
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  const lines: string[] = [];
  for (const query of queries) {
    const gold = query.gold[0];
    const doc = gold ? byId.get(gold.doc) : undefined;
    if (!doc) continue;
    lines.push(
      JSON.stringify({ question: query.text, answer_span: doc.text.slice(gold.start, gold.end), doc: doc.id }),
    );
  }
  const text = lines.join("\n") + "\n";
  const path = join(dir, `header-queries-${sha256(text).slice(0, 12)}.jsonl`);
  writeFileSync(path, text);
  return path;
}

/**
 * Queries as a labelled set read back through the loader a user's file goes through: written as answer-span JSONL
 * into a fresh temp folder of its own (never a fixed path other runs share), loaded, and the folder removed, also
 * when loading fails. `folder` is the removed folder's path (for tests and messages).
 */
export function answerSpanRoundTrip(
  docs: readonly Doc[],
  queries: readonly Query[],
): { set: LabelledSet; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), "seamlab-labelled-"));
  try {
    const file = writeAnswerSpanJsonl(docs, queries, folder);
    return { set: loadLabelledSet(file, docs, { skipMalformed: true }), folder };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A row of the labelled-set notebook: what `evaluateSplitterConfig` returns, without its timings, and a label. */
export type ConfigEvaluation = Omit<SplitterEvaluation, "timings"> & {
  /**
   * Names the row on charts and tables instead of the config (e.g. the retriever when one config is compared across
   * retrievers).
   */
  label?: string;
};

/** A config's short label: "recursive 1000/200". */
export function configLabel(config: SplitterConfig): string {
  return `${config.splitter} ${config.size}/${config.overlap}`;
}

/** An evaluation's label: its own, else its config's. */
export function evaluationLabel(e: ConfigEvaluation): string {
  return e.label ?? configLabel(e.config);
}

/**
 * One config under BM25, dense (cosine over `lsa` vectors of `embedderDims` dimensions, fitted on the config's
 * chunks) and hybrid (the two fused by reciprocal rank fusion), labelled by retriever. The config is split once;
 * hybrid fuses the very BM25 index and dense model the other two rows use (one lsa fit, not two), and the BM25 row
 * is `evaluateConfigs`' own when it already evaluated this config on these queries.
 */
export async function evaluateRetrievers(
  docs: readonly Doc[],
  queries: readonly Query[],
  config: SplitterConfig,
  k: number,
  embedderDims: number,
): Promise<ConfigEvaluation[]> {
  const settings = { embedder: lsaSpec(embedderDims) };
  const chunks = await splitCorpusAsync(docs as Doc[], config);
  const bm25 = await createRetriever("bm25", chunks, settings);
  const dense = await createRetriever("dense", chunks, settings);
  const hybrid = createHybridRetriever([bm25, dense]);
  const evaluate = (retriever: Retriever) => evaluateRetriever(docs, queries, config, chunks, retriever, { k });
  return [
    { ...(earlierBm25(docs, queries, config, k) ?? (await evaluate(bm25))), label: "BM25" },
    { ...(await evaluate(dense)), label: "dense (lsa)" },
    { ...(await evaluate(hybrid)), label: "hybrid (RRF)" },
  ];
}

// BM25 evaluations `evaluateConfigs` made, per docs and queries array: evaluateRetrievers reuses its config's.
const bm25Evaluations = new WeakMap<readonly Doc[], WeakMap<readonly Query[], Map<string, ConfigEvaluation>>>();
const bm25Key = (config: SplitterConfig, k: number) => JSON.stringify([config, k]);

function earlierBm25(
  docs: readonly Doc[],
  queries: readonly Query[],
  config: SplitterConfig,
  k: number,
): ConfigEvaluation | undefined {
  return bm25Evaluations.get(docs)?.get(queries)?.get(bm25Key(config, k));
}

/** Evaluates each config with BM25 at k (split, index, query). */
export async function evaluateConfigs(
  docs: readonly Doc[],
  queries: readonly Query[],
  configs: readonly SplitterConfig[],
  k: number,
): Promise<ConfigEvaluation[]> {
  if (!bm25Evaluations.has(docs)) bm25Evaluations.set(docs, new WeakMap());
  const byQueries = bm25Evaluations.get(docs) as WeakMap<readonly Query[], Map<string, ConfigEvaluation>>;
  if (!byQueries.has(queries)) byQueries.set(queries, new Map());
  const done = byQueries.get(queries) as Map<string, ConfigEvaluation>;
  const out: ConfigEvaluation[] = [];
  for (const config of configs) {
    const evaluation = await evaluateSplitterConfig(docs, queries, config, { k });
    done.set(bm25Key(config, k), evaluation);
    out.push(evaluation);
  }
  return out;
}

/** `barWithCI` rows of recall@k (fraction, bootstrap CI) per config. */
export function recallRows(evaluations: readonly ConfigEvaluation[]): Record<string, number | string>[] {
  return evaluations.map((e) => ({
    label: evaluationLabel(e),
    value: e.summary.recallAtK,
    low: e.summary.recallAtKCI.low,
    high: e.summary.recallAtKCI.high,
  }));
}

/**
 * `barWithCI` rows of mean span IoU (retrieved text vs gold text, overlaps counted once) per config, in percent
 * points: IoU is often a few percent, which a 0-100% axis would flatten, so the chart gets its own scale.
 */
export function iouRows(evaluations: readonly ConfigEvaluation[]): Record<string, number | string>[] {
  return evaluations.map((e) => ({
    label: evaluationLabel(e),
    value: 100 * e.summary.iou,
    low: 100 * e.summary.iouCI.low,
    high: 100 * e.summary.iouCI.high,
  }));
}

/** The metrics table, one row per config. */
export function evaluationTableRows(evaluations: readonly ConfigEvaluation[]): Record<string, number | string>[] {
  return evaluations.map((e) => ({
    config: evaluationLabel(e),
    chunks: e.summary.chunks,
    [`recall@${e.summary.k} (%)`]: points(e.summary.recallAtK),
    "span recall (%)": points(e.summary.spanRecall),
    "span precision (%)": points(e.summary.spanPrecision),
    "span IoU (%)": points(e.summary.iou),
    "IoU, Chroma's way (%)": points(e.summary.chroma.iou),
    "index size / corpus": e.indexRatio,
  }));
}

/** Paired comparison of config A against config B on the same queries (hit = a gold span inside a top-k chunk). */
export function compareEvaluations(a: ConfigEvaluation, b: ConfigEvaluation): PairedComparison {
  return pairedComparison(
    a.outcomes.map((o) => o.hit),
    b.outcomes.map((o) => o.hit),
  );
}

/** The paired comparison as a one-row table. */
export function comparisonTableRows(
  a: ConfigEvaluation,
  b: ConfigEvaluation,
  c: PairedComparison,
): Record<string, number | string>[] {
  return [
    {
      A: evaluationLabel(a),
      B: evaluationLabel(b),
      queries: c.queries,
      "A wins": c.wins,
      "B wins": c.losses,
      ties: c.ties,
      "hit rate A (%)": points(c.hitRateA),
      "hit rate B (%)": points(c.hitRateB),
      "A − B (points)": points(c.diff),
      "paired 95% CI": pointsInterval(c.diffCI.low, c.diffCI.high),
      "McNemar p": formatP(c.mcnemarP),
    },
  ];
}

export interface LabelledInputs {
  docs: Doc[];
  queries: Query[];
  /** The user's labelled file; "" when the set was built from the corpus (written to a temp folder, removed). */
  file: string;
  /** True when the file was built from the corpus (header or ICT queries) because no `queries` file was given. */
  builtFromHeadings: boolean;
  /** How the built file's questions and answers were made, in a clause (empty for a user's file). */
  howBuilt: string;
  /** Source and count, for every chart subtitle and table caption: "150 header queries (## and ###, as a labelled file)". */
  label: string;
  /** Answer texts found more than once in the corpus (the first occurrence was used as gold). */
  ambiguous: number;
  /** Rows skipped (malformed or not found in the corpus). */
  skipped: number;
  description: string;
}

/**
 * A labelled set for the corpus: the user's file when `queries` is given, else one written from the corpus's
 * header queries (question = heading, answer = the first sentence under it) and read back through the same
 * loader a user's file goes through. `headingLevels`: the headings that give those queries (default
 * DEFAULT_HEADING_LEVELS, the CLI's too).
 */
export function labelledInputs(
  corpus: string,
  queries?: string,
  querySample?: string | number,
  headingLevels?: readonly number[],
): LabelledInputs {
  if (queries && isLabelledSpec(queries)) {
    const inputs = loadRetrievalInputs(corpus, queries, { querySample });
    const report = inputs.labelled as LabelledReport;
    return {
      docs: inputs.docs,
      queries: inputs.queries,
      file: queries,
      builtFromHeadings: false,
      howBuilt: "",
      label: inputs.queryLabel,
      ambiguous: report.ambiguous,
      skipped: report.rows - report.queries,
      description: inputs.description,
    };
  }
  const header = loadRetrievalInputs(corpus, queries, { querySample, headingLevels });
  const { set } = answerSpanRoundTrip(header.docs, header.queries);
  const sampled = header.querySample.sampled;
  return {
    docs: header.docs,
    queries: set.queries,
    file: "",
    builtFromHeadings: true,
    howBuilt:
      header.queryKind === "ict"
        ? "each query is a sentence sampled from the corpus (removed from the text) and its neighbouring sentences " +
          "the answer span"
        : `each ${headingMarks(headingLevels)} heading is a question and the first sentence under it the answer span`,
    label:
      `${thousands(set.queries.length)}${sampled ? ` of ${thousands(header.querySample.population)}` : ""} ` +
      `${header.queryKind === "ict" ? "ICT queries (" : `header queries (${headingMarks(headingLevels)}, `}` +
      `as a labelled file${sampled ? ", a seeded sample" : ""})`,
    ambiguous: set.report.ambiguous,
    skipped: set.report.rows - set.report.queries,
    description: header.description,
  };
}
