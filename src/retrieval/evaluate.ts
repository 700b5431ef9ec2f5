import type { Chunk, Doc, Query } from "../core/types";
import { bootstrapMeanIntervals } from "../stats/bootstrap";
import { wilsonInterval } from "../stats/proportion";
import { type Interval } from "../stats/types";
import {
  containsSpan,
  distinctPassages,
  nearDuplicateCount,
  spanScoresChroma,
  spanScoresMerged,
  chunkTermIds,
  sortedIdJaccard,
  spansOverlap,
  type Span,
  type SpanScores,
} from "./metrics";
import type { Retriever } from "./types";
import { mean } from "../stats/quantiles";

export interface EvaluationOptions {
  /** chunks retrieved per query (default 5) */
  k?: number;
  /** term-set Jaccard at or above which a retrieved chunk counts as a near-duplicate of a higher one (default 0.7) */
  nearDuplicateThreshold?: number;
  /** seed of the bootstrap CIs (default 1) */
  seed?: number;
  /** Tokens of chunk `index`, to count the prompt tokens each query's context costs (default: not counted). */
  tokensOf?: (index: number) => number;
}

/** What happened to one query. */
export interface QueryOutcome {
  id: string;
  /** some gold span lies fully inside some top-k chunk */
  hit: boolean;
  goldFound: number;
  goldTotal: number;
  /** chunk indices, best first */
  ranked: number[];
  distinct: number;
  /** the top-k holds two chunks whose spans overlap */
  overlapping: boolean;
  nearDuplicates: number;
  merged: SpanScores;
  chroma: SpanScores;
  /** Characters of the retrieved chunks' text (what the prompt pastes; shared text counted per chunk). */
  contextChars: number;
  /** Their tokens, when the evaluation was given a token counter; else null. */
  contextTokens: number | null;
  /** The best chunk's window or parent alone was over the context budget: nothing reached the prompt. */
  topOverBudget?: boolean;
}

/** Aggregates over queries. Proportions carry Wilson 95% CIs, means carry seeded bootstrap 95% CIs. */
export interface RetrievalSummary {
  retriever: string;
  k: number;
  chunks: number;
  queries: number;
  hits: number;
  hitRate: number;
  hitRateCI: Interval;
  /** mean over queries of the share of its gold spans fully inside some top-k chunk */
  recallAtK: number;
  recallAtKCI: Interval;
  goldSpans: number;
  goldSpansFound: number;
  meanDistinct: number;
  meanDistinctCI: Interval;
  /** share of queries whose top-k holds overlapping chunks */
  queriesWithOverlappingTopK: number;
  queriesWithOverlappingTopKCI: Interval;
  /** near-duplicate chunks / retrieved chunks */
  nearDuplicateRatio: number;
  nearDuplicateThreshold: number;
  /** Mean chunks retrieved per query (k, or fewer when a context budget is full first). */
  meanContextChunks: number;
  /** Mean characters of retrieved text per query: the prompt's context. */
  meanContextChars: number;
  /** Queries whose best chunk's window or parent alone was over the context budget (only when some were). */
  queriesTopOverBudget?: number;
  /** Mean prompt tokens of that context, when counted (null: not counted). */
  meanContextTokens: number | null;
  /** mean over queries; overlapping retrieved text counted once */
  spanRecall: number;
  spanPrecision: number;
  iou: number;
  spanRecallCI: Interval;
  spanPrecisionCI: Interval;
  iouCI: Interval;
  /** the same means, Chroma's way (overlapping retrieved text counted twice in precision and IoU) */
  chroma: {
    spanRecall: number;
    spanPrecision: number;
    iou: number;
    spanRecallCI: Interval;
    spanPrecisionCI: Interval;
    iouCI: Interval;
  };
}

/**
 * Wilson's interval when every value is 0 or 1 (recall@k with one gold span per query is the hit rate, and must get
 * the hit rate's interval: a bootstrap of one query gives [100, 100]); undefined otherwise.
 */
function proportionCI(values: readonly number[]): Interval | undefined {
  if (!values.every((v) => v === 0 || v === 1)) return undefined;
  return wilsonInterval(values.filter((v) => v === 1).length, values.length);
}

/** The mean, 0 for no queries (an empty set scores nothing rather than NaN). */
const meanOrZero = (values: number[]) => (values.length === 0 ? 0 : mean(values));

/** What one query's prompt holds: the retrieved chunks (best first) and the pieces of text pasted for them. */
export interface RetrievedContext {
  /** Chunk indexes, best first. */
  ranked: number[];
  /** The spans pasted: the chunks themselves, or their windows or parents. */
  spans: readonly Span[];
  /** Characters and tokens pasted (tokens null when not counted). */
  chars: number;
  tokens: number | null;
}

/**
 * The outcome of one query given its context: a hit when some gold span lies fully inside some pasted span. Near
 * duplicates are counted among the retrieved chunks.
 */
export function scoreContext(
  chunks: readonly Chunk[],
  query: Query,
  context: RetrievedContext,
  options: EvaluationOptions = {},
): QueryOutcome {
  const threshold = options.nearDuplicateThreshold ?? 0.7;
  const { ranked, spans } = context;
  const goldFound = query.gold.filter((g) => spans.some((s) => containsSpan(s, g))).length;
  let overlapping = false;
  for (let i = 1; i < spans.length && !overlapping; i++) {
    for (let j = 0; j < i && !overlapping; j++) overlapping = spansOverlap(spans[i], spans[j]);
  }
  return {
    id: query.id,
    hit: goldFound > 0,
    goldFound,
    goldTotal: query.gold.length,
    ranked,
    distinct: distinctPassages(spans),
    overlapping,
    nearDuplicates:
      ranked.length < 2
        ? 0
        : nearDuplicateCount(
            ranked.map((index) => chunkTermIds(chunks, index)),
            threshold,
            sortedIdJaccard,
          ),
    merged: spanScoresMerged(spans, query.gold),
    chroma: spanScoresChroma(spans, query.gold),
    contextChars: context.chars,
    contextTokens: context.tokens,
  };
}

/**
 * The outcome of one query whose retrieved chunks are `ranked` (indexes into `chunks`, best first): a hit when some
 * gold span lies fully inside some retrieved chunk. Plain hit@k and an equal context budget share this rule.
 */
export function scoreRanked(
  chunks: readonly Chunk[],
  query: Query,
  ranked: number[],
  options: EvaluationOptions = {},
): QueryOutcome {
  let chars = 0;
  let tokens = 0;
  for (const i of ranked) {
    chars += chunks[i].text.length;
    if (options.tokensOf) tokens += options.tokensOf(i);
  }
  const spans = ranked.map((i) => chunks[i]);
  return scoreContext(chunks, query, { ranked, spans, chars, tokens: options.tokensOf ? tokens : null }, options);
}

/** Runs every query against the retriever and scores the top-k against the gold spans. */
export async function evaluateQueries(
  chunks: readonly Chunk[],
  queries: readonly Query[],
  retriever: Retriever,
  options: EvaluationOptions = {},
): Promise<QueryOutcome[]> {
  const k = options.k ?? 5;
  const outcomes: QueryOutcome[] = [];
  const batch = retriever.searchMany
    ? await retriever.searchMany(
        queries.map((q) => q.text),
        k,
      )
    : undefined;
  for (const [position, query] of queries.entries()) {
    const found = batch ? batch[position] : await retriever.search(query.text, k);
    outcomes.push(
      scoreRanked(
        chunks,
        query,
        found.slice(0, k).map((r) => r.index),
        options,
      ),
    );
  }
  return outcomes;
}

/** Aggregates outcomes (all of them, or a subset such as one document's queries). */
export function summarizeOutcomes(
  outcomes: readonly QueryOutcome[],
  meta: { retriever: string; k: number; chunks: number },
  options: EvaluationOptions = {},
): RetrievalSummary {
  const seed = options.seed ?? 1;
  const n = outcomes.length;
  const hits = outcomes.filter((o) => o.hit).length;
  const overlapping = outcomes.filter((o) => o.overlapping).length;
  const retrieved = outcomes.reduce((s, o) => s + o.ranked.length, 0);
  const overBudget = outcomes.filter((o) => o.topOverBudget).length;
  const picks: ((o: QueryOutcome) => number)[] = [
    (o) => (o.goldTotal === 0 ? 0 : o.goldFound / o.goldTotal),
    (o) => o.distinct,
    (o) => o.merged.recall,
    (o) => o.merged.precision,
    (o) => o.merged.iou,
    (o) => o.chroma.recall,
    (o) => o.chroma.precision,
    (o) => o.chroma.iou,
  ];
  // One set of resampled queries for every column (each CI is what bootstrapMeanInterval gives it alone).
  const columns = picks.map((pick) => outcomes.map(pick));
  const intervals = bootstrapMeanIntervals(columns, { seed });
  const [recall, distinct, mRecall, mPrecision, mIou, cRecall, cPrecision, cIou] = columns.map((values, j) => ({
    value: meanOrZero(values),
    ci: intervals[j],
  }));
  return {
    retriever: meta.retriever,
    k: meta.k,
    chunks: meta.chunks,
    queries: n,
    hits,
    hitRate: n === 0 ? 0 : hits / n,
    hitRateCI: wilsonInterval(hits, n),
    recallAtK: recall.value,
    recallAtKCI: proportionCI(columns[0]) ?? recall.ci,
    goldSpans: outcomes.reduce((s, o) => s + o.goldTotal, 0),
    goldSpansFound: outcomes.reduce((s, o) => s + o.goldFound, 0),
    meanDistinct: distinct.value,
    meanDistinctCI: distinct.ci,
    queriesWithOverlappingTopK: n === 0 ? 0 : overlapping / n,
    queriesWithOverlappingTopKCI: wilsonInterval(overlapping, n),
    nearDuplicateRatio: retrieved === 0 ? 0 : outcomes.reduce((s, o) => s + o.nearDuplicates, 0) / retrieved,
    nearDuplicateThreshold: options.nearDuplicateThreshold ?? 0.7,
    meanContextChunks: meanOrZero(outcomes.map((o) => o.ranked.length)),
    meanContextChars: meanOrZero(outcomes.map((o) => o.contextChars)),
    ...(overBudget > 0 ? { queriesTopOverBudget: overBudget } : {}),
    meanContextTokens: outcomes.every((o) => typeof o.contextTokens === "number")
      ? meanOrZero(outcomes.map((o) => o.contextTokens as number))
      : null,
    spanRecall: mRecall.value,
    spanPrecision: mPrecision.value,
    iou: mIou.value,
    spanRecallCI: mRecall.ci,
    spanPrecisionCI: mPrecision.ci,
    iouCI: mIou.ci,
    chroma: {
      spanRecall: cRecall.value,
      spanPrecision: cPrecision.value,
      iou: cIou.value,
      spanRecallCI: cRecall.ci,
      spanPrecisionCI: cPrecision.ci,
      iouCI: cIou.ci,
    },
  };
}

/** Index size relative to the corpus: characters of chunk text over characters of document text. */
export function indexRatio(docs: readonly Doc[], chunks: readonly Chunk[]): number {
  const corpus = docs.reduce((s, d) => s + d.text.length, 0);
  return corpus === 0 ? 0 : chunks.reduce((s, c) => s + c.text.length, 0) / corpus;
}
