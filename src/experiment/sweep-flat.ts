import type { CostedRow } from "./run";

/** One flat record per row, for tables, CSV and the CLI's JSON. */
export function flattenRow(row: CostedRow): Record<string, string | number | null> {
  const s = row.config.splitter;
  const r = row.config.retrieval;
  const m = row.retrieval;
  return {
    splitter: s.splitter,
    size: s.size,
    overlap: s.overlap,
    unit: s.unit ?? "chars",
    k: r.k,
    finalK: r.finalK ?? r.k,
    reranker: r.reranker ?? "none",
    contextBudget: r.contextBudget ? r.contextBudget.amount : null,
    contextBudgetUnit: r.contextBudget ? r.contextBudget.unit : null,
    meanContextChars: m.meanContextChars,
    meanContextTokens: m.meanContextTokens ?? null,
    chunks: row.seams.chunks,
    zeroOverlapPct: row.seams.seams === 0 ? null : row.seams.zeroOverlapPct, // a share of no seams is no number
    meanOverlap: row.seams.meanOverlap,
    medianOverlap: row.seams.medianOverlap,
    indexRatio: row.seams.indexRatio,
    pairsKeptPct: row.damage.keptPct,
    queries: m.queries,
    hitRate: m.hitRate,
    hitRateLow: m.hitRateCI.low,
    hitRateHigh: m.hitRateCI.high,
    recall: m.recallAtK,
    recallLow: m.recallAtKCI.low,
    recallHigh: m.recallAtKCI.high,
    meanDistinct: m.meanDistinct,
    overlappingTopKPct: 100 * m.queriesWithOverlappingTopK,
    nearDuplicateRatio: m.nearDuplicateRatio,
    iou: m.iou,
    tokensEmbedded: row.tokensEmbedded,
    tokensRatio: row.cost.tokensRatio,
    embeddingCost: row.cost.embeddingCost,
    storageBytes: row.cost.storageBytes,
    storageRatio: row.cost.storageRatio,
    // A row measured on a document sample says so, with the CIs of what the sample estimates.
    ...(row.sample
      ? {
          sampleDocuments: row.sample.documents,
          sample: row.sample.description,
          pairsKeptLow: row.sample.keptPctCI.low,
          pairsKeptHigh: row.sample.keptPctCI.high,
          tokensEmbeddedLow: row.sample.tokensEmbeddedCI.low,
          tokensEmbeddedHigh: row.sample.tokensEmbeddedCI.high,
        }
      : {}),
  };
}
