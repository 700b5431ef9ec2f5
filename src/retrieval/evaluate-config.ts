import type { Chunk, Doc, Query } from "../core/types";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpusAsync } from "../splitters/registry";
import { evaluateQueries, indexRatio, summarizeOutcomes, type EvaluationOptions } from "./evaluate";
import { createRetriever } from "./factory";
import type { Retriever, RetrieverSettings } from "./types";

export type ConfigEvaluation = Awaited<ReturnType<typeof evaluateRetriever>>;

export async function evaluateSplitterConfig(
  docs: readonly Doc[],
  queries: readonly Query[],
  config: SplitterConfig,
  options: EvaluationOptions & { retriever?: string; retrieverSettings?: RetrieverSettings } = {},
) {
  const t0 = performance.now();
  const chunks = await splitCorpusAsync(docs as Doc[], config);
  const t1 = performance.now();
  const retriever = await createRetriever(options.retriever ?? "bm25", chunks, options.retrieverSettings ?? {});
  const t2 = performance.now();
  const spent = { split: (t1 - t0) / 1000, index: (t2 - t1) / 1000 };
  return evaluateRetriever(docs, queries, config, chunks, retriever, options, spent);
}

/** Evaluates a retriever already built over `chunks`: retrievers sharing a split (and embedder) split and fit once. */
export async function evaluateRetriever(
  docs: readonly Doc[],
  queries: readonly Query[],
  config: SplitterConfig,
  chunks: readonly Chunk[],
  retriever: Retriever,
  options: EvaluationOptions = {},
  spent: { split: number; index: number } = { split: 0, index: 0 },
) {
  const k = options.k ?? 5;
  const t0 = performance.now();
  const outcomes = await evaluateQueries(chunks, queries, retriever, options);
  const t1 = performance.now();
  return {
    config,
    indexRatio: indexRatio(docs, chunks),
    summary: summarizeOutcomes(outcomes, { retriever: retriever.name, k, chunks: chunks.length }, options),
    outcomes,
    timings: { ...spent, query: (t1 - t0) / 1000 }, // seconds
  };
}
