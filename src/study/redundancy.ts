// Top-k redundancy (notebook 04): with overlap, neighbouring chunks can fill the top-k with one passage twice.
// Measured per overlap, then over overlap x first-stage depth with MMR (and a dense `lsa` reranker) cutting to k.
import { normalizeConfig, type ExperimentConfig } from "../experiment/grid";
import { runGrid, type CostedRow } from "../experiment/run";
import type { RetrievalInputs } from "./inputs";
import { lsaSpec } from "./dense";
import { studySweepInputs } from "./row-sample";
import { points } from "./format";
import type { SplitterSweepSpec } from "./sweep";

/** `k`: the final k; `depths`: first-stage depths the reranker chooses k from (each >= k); `lambda`: MMR's weight of
 * relevance against novelty; `embedderDims`: when set, the `dense` reranker runs too, over lsa vectors of these. */
export type RedundancySpec = Omit<SplitterSweepSpec, "margin"> & {
  depths: number[];
  lambda: number;
  embedderDims?: number;
};

/** BM25 top-k (`plain`), and top-depth -> mmr (`reranked`) or dense (`dense`) -> k, per overlap (x depth). */
export type RedundancyRows = Awaited<ReturnType<typeof runRedundancyGrid>>;

export async function runRedundancyGrid(inputs: RetrievalInputs, spec: RedundancySpec) {
  const configs: ExperimentConfig[] = [];
  for (const overlap of spec.overlaps) {
    const splitter = { splitter: spec.splitter, size: spec.size, overlap };
    configs.push(normalizeConfig({ splitter, retrieval: { k: spec.k } }));
    for (const depth of spec.depths) {
      const reranked = (reranker: string, rerankerOptions: Record<string, unknown>) =>
        configs.push(normalizeConfig({ splitter, retrieval: { k: depth, finalK: spec.k, reranker, rerankerOptions } }));
      reranked("mmr", { lambda: spec.lambda });
      if (spec.embedderDims !== undefined) reranked("dense", lsaSpec(spec.embedderDims));
    }
  }
  const { rows } = await runGrid(studySweepInputs(inputs, configs), configs, { workers: 0, quiet: true });
  const by = (reranker: string) => rows.filter((row) => row.config.retrieval.reranker === reranker);
  return { plain: by("none"), reranked: by("mmr"), dense: by("dense") };
}

/** `lineWithBand` rows of one retrieval measure and its CI per overlap. */
function bandRows(rows: readonly CostedRow[], series: string, measure: "meanDistinct" | "queriesWithOverlappingTopK") {
  return rows.map((row): Record<string, number | string> => {
    const ci = row.retrieval[`${measure}CI`];
    return { x: row.config.splitter.overlap, y: row.retrieval[measure], low: ci.low, high: ci.high, series };
  });
}

/** Mean distinct passages in the top-k per overlap, with its bootstrap CI, for `lineWithBand`. */
export function distinctRows(rows: readonly CostedRow[], series = "BM25 top-k"): Record<string, number | string>[] {
  return bandRows(rows, series, "meanDistinct");
}

/** Share of queries whose top-k holds two chunks sharing source text, with its Wilson CI. */
export function overlappingTopKRows(
  rows: readonly CostedRow[],
  series = "BM25 top-k",
): Record<string, number | string>[] {
  return bandRows(rows, series, "queriesWithOverlappingTopK");
}

/** Heatmap cells over overlap x first-stage depth (rows named "top-10 -> mmr -> 5"): hit rate or distinct passages. */
export function depthHeatmapRows(rows: readonly CostedRow[], metric: "hitRate" | "meanDistinct") {
  return rows.map((row) => ({
    x: String(row.config.splitter.overlap),
    y: `top-${row.config.retrieval.k} -> ${row.config.retrieval.reranker} -> ${row.config.retrieval.finalK}`,
    value: metric === "hitRate" ? row.retrieval.hitRate : row.retrieval.meanDistinct,
  }));
}

/** The row with the highest hit rate (the first of equals: the smaller overlap, then the shallower depth). */
export function bestHitRateRow(rows: readonly CostedRow[]): CostedRow {
  return rows.reduce((a, b) => (b.retrieval.hitRate > a.retrieval.hitRate ? b : a));
}

/** One line per overlap: the plain top-k beside the best reranked depth. */
export function redundancyTableRows(result: RedundancyRows): Record<string, number | string>[] {
  return result.plain.map((plain) => {
    const overlap = plain.config.splitter.overlap;
    const reranked = result.reranked.filter((row) => row.config.splitter.overlap === overlap);
    const best = reranked.length > 0 ? bestHitRateRow(reranked) : undefined;
    return {
      overlap,
      chunks: plain.seams.chunks,
      "distinct passages in top-k": plain.retrieval.meanDistinct,
      "queries with overlapping top-k (%)": points(plain.retrieval.queriesWithOverlappingTopK),
      "near-duplicate share (%)": points(plain.retrieval.nearDuplicateRatio),
      "hit rate (%)": points(plain.retrieval.hitRate),
      "best mmr depth": best ? best.config.retrieval.k : "",
      "hit rate with mmr (%)": best ? points(best.retrieval.hitRate) : "",
      "distinct with mmr": best ? best.retrieval.meanDistinct : "",
    };
  });
}
