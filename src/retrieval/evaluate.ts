import { totalChars, type Chunk, type Doc, type Query } from "../core/types";
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
  type Span,
  type SpanScores,
} from "./metrics";
import type { Retriever } from "./types";
import { mean } from "../stats/quantiles";

export interface EvaluationOptions {
  k?: number;
  nearDuplicateThreshold?: number; // term-set Jaccard making a chunk a near-duplicate of a higher one (default 0.7)
  seed?: number;
  tokensOf?: (index: number) => number; // chunk `index`'s tokens, to count each prompt's (default: not counted)
}

export interface QueryOutcome {
  id: string;
  hit: boolean; // some gold span lies fully inside some top-k chunk
  goldFound: number;
  goldTotal: number;
  ranked: number[];
  distinct: number;
  overlapping: boolean; // the top-k holds two chunks whose spans overlap
  nearDuplicates: number;
  merged: SpanScores;
  chroma: SpanScores;
  contextChars: number; // pasted, text shared by chunks counted per chunk
  contextTokens: number | null;
  topOverBudget?: boolean; // the best chunk's window or parent alone was over the budget: nothing was pasted
}

export type RetrievalSummary = ReturnType<typeof summarizeOutcomes>;

/** Wilson's interval when every value is 0 or 1 (recall@k is then a hit rate; a bootstrap of one query: [100, 100]). */
function proportionCI(values: readonly number[]): Interval | undefined {
  if (!values.every((v) => v === 0 || v === 1)) return undefined;
  return wilsonInterval(values.filter((v) => v === 1).length, values.length);
}

const meanOrZero = (values: number[]) => (values.length === 0 ? 0 : mean(values));

/** What one query's prompt holds: the retrieved chunks (best first) and the pieces of text pasted for them. */
export interface RetrievedContext {
  ranked: number[];
  spans: readonly Span[]; // the chunks themselves, or their windows or parents
  chars: number;
  tokens: number | null;
}

/** One query's outcome: a hit when some gold span lies fully inside some pasted span. */
export function scoreContext(
  chunks: readonly Chunk[],
  query: Query,
  context: RetrievedContext,
  options: EvaluationOptions = {},
): QueryOutcome {
  const threshold = options.nearDuplicateThreshold ?? 0.7;
  const { ranked, spans } = context;
  const termIds = ranked.length < 2 ? [] : ranked.map((index) => chunkTermIds(chunks, index));
  const goldFound = query.gold.filter((g) => spans.some((s) => containsSpan(s, g))).length;
  const distinct = distinctPassages(spans);
  return {
    id: query.id,
    hit: goldFound > 0,
    goldFound,
    goldTotal: query.gold.length,
    ranked,
    distinct,
    overlapping: distinct < spans.length,
    nearDuplicates: nearDuplicateCount(termIds, threshold, sortedIdJaccard),
    merged: spanScoresMerged(spans, query.gold),
    chroma: spanScoresChroma(spans, query.gold),
    contextChars: context.chars,
    contextTokens: context.tokens,
  };
}

/** One query's outcome when the `ranked` chunks themselves are pasted (plain hit@k and an equal context budget). */
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

export async function evaluateQueries(
  chunks: readonly Chunk[],
  queries: readonly Query[],
  retriever: Retriever,
  options: EvaluationOptions = {},
): Promise<QueryOutcome[]> {
  const k = options.k ?? 5;
  const outcomes: QueryOutcome[] = [];
  const texts = queries.map((q) => q.text);
  const batch = retriever.searchMany ? await retriever.searchMany(texts, k) : undefined;
  for (const [position, query] of queries.entries()) {
    const found = batch ? batch[position] : await retriever.search(query.text, k);
    const ranked = found.slice(0, k).map((r) => r.index);
    outcomes.push(scoreRanked(chunks, query, ranked, options));
  }
  return outcomes;
}

/**
 * Aggregates outcomes (all, or a subset). Proportions carry Wilson 95% CIs, means seeded bootstrap ones; span scores
 * count overlapping retrieved text once, and twice in `chroma`'s precision and IoU (Chroma's way).
 */
export function summarizeOutcomes(
  outcomes: readonly QueryOutcome[],
  meta: { retriever: string; k: number; chunks: number },
  options: EvaluationOptions = {},
) {
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
  // one set of resampled queries for every column (each CI as bootstrapMeanInterval gives it alone)
  const columns = picks.map((pick) => outcomes.map(pick));
  const intervals = bootstrapMeanIntervals(columns, { seed });
  const means = columns.map((values, j) => ({ value: meanOrZero(values), ci: intervals[j] }));
  const [goldRecall, distinct] = means;
  const spanScores = ([recall, precision, iou]: typeof means) => ({
    spanRecall: recall.value,
    spanPrecision: precision.value,
    iou: iou.value,
    spanRecallCI: recall.ci,
    spanPrecisionCI: precision.ci,
    iouCI: iou.ci,
  });
  return {
    retriever: meta.retriever,
    k: meta.k,
    chunks: meta.chunks,
    queries: n,
    hits,
    hitRate: n === 0 ? 0 : hits / n,
    hitRateCI: wilsonInterval(hits, n),
    recallAtK: goldRecall.value, // mean share of a query's gold spans fully inside some top-k chunk
    recallAtKCI: proportionCI(columns[0]) ?? goldRecall.ci,
    goldSpans: outcomes.reduce((s, o) => s + o.goldTotal, 0),
    goldSpansFound: outcomes.reduce((s, o) => s + o.goldFound, 0),
    meanDistinct: distinct.value,
    meanDistinctCI: distinct.ci,
    queriesWithOverlappingTopK: n === 0 ? 0 : overlapping / n,
    queriesWithOverlappingTopKCI: wilsonInterval(overlapping, n),
    nearDuplicateRatio: retrieved === 0 ? 0 : outcomes.reduce((s, o) => s + o.nearDuplicates, 0) / retrieved,
    nearDuplicateThreshold: options.nearDuplicateThreshold ?? 0.7,
    meanContextChunks: meanOrZero(outcomes.map((o) => o.ranked.length)), // k, or fewer when a budget is full first
    meanContextChars: meanOrZero(outcomes.map((o) => o.contextChars)),
    ...(overBudget > 0 ? { queriesTopOverBudget: overBudget } : {}),
    meanContextTokens: outcomes.every((o) => typeof o.contextTokens === "number")
      ? meanOrZero(outcomes.map((o) => o.contextTokens as number))
      : null,
    ...spanScores(means.slice(2, 5)),
    chroma: spanScores(means.slice(5, 8)),
  };
}

export function indexRatio(docs: readonly Doc[], chunks: readonly Chunk[]): number {
  const corpus = totalChars(docs);
  return corpus === 0 ? 0 : totalChars(chunks) / corpus;
}
