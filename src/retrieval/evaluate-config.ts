import type { Doc, Query } from "../core/types";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpusAsync } from "../splitters/registry";
import {
  evaluateQueries,
  indexRatio,
  summarizeOutcomes,
  type EvaluationOptions,
  type QueryOutcome,
  type RetrievalSummary,
} from "./evaluate";
import { createRetriever } from "./factory";
import type { RetrieverSettings } from "./types";

export interface ConfigEvaluation {
  config: SplitterConfig;
  indexRatio: number;
  summary: RetrievalSummary;
  outcomes: QueryOutcome[];
  /** seconds spent splitting, indexing, querying */
  timings: { split: number; index: number; query: number };
}

/** Splits the docs with one config, builds the named retriever over the chunks and evaluates the queries. */
export async function evaluateSplitterConfig(
  docs: readonly Doc[],
  queries: readonly Query[],
  config: SplitterConfig,
  options: EvaluationOptions & { retriever?: string; retrieverSettings?: RetrieverSettings } = {},
): Promise<ConfigEvaluation> {
  const k = options.k ?? 5;
  const t0 = performance.now();
  const chunks = await splitCorpusAsync(docs as Doc[], config);
  const t1 = performance.now();
  const retriever = await createRetriever(options.retriever ?? "bm25", chunks, options.retrieverSettings ?? {});
  const t2 = performance.now();
  const outcomes = await evaluateQueries(chunks, queries, retriever, options);
  const t3 = performance.now();
  return {
    config,
    indexRatio: indexRatio(docs, chunks),
    summary: summarizeOutcomes(outcomes, { retriever: retriever.name, k, chunks: chunks.length }, options),
    outcomes,
    timings: { split: (t1 - t0) / 1000, index: (t2 - t1) / 1000, query: (t3 - t2) / 1000 },
  };
}
