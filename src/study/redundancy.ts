// Top-k redundancy (notebook 04): with overlap, neighbouring chunks can fill the top-k with one passage twice.
// Measured per overlap, then over overlap x first-stage depth with MMR (and a dense `lsa` reranker) cutting to k; with
// the sentences notebook 04 writes under its charts.
import { normalizeConfig, type ExperimentConfig } from "../experiment/grid";
import { runGrid, type CostedRow } from "../experiment/run";
import { decideByStorage, verdictText } from "../experiment/verdict";
import type { Decision } from "../stats/non-inferiority";
import { thousands } from "../stats/format";
import type { RetrievalInputs } from "./inputs";
import { lsaSpec } from "./dense";
import { pct, points } from "./format";
import { studySweepInputs, type SplitterSweepSpec } from "./sweep";

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

/** `lineWithBand` rows of one retrieval measure of the plain top-k and its CI per overlap. */
function bandRows(rows: readonly CostedRow[], measure: "meanDistinct" | "queriesWithOverlappingTopK") {
  return rows.map((row): Record<string, number | string> => {
    const ci = row.retrieval[`${measure}CI`];
    const series = "BM25 top-k";
    return { x: row.config.splitter.overlap, y: row.retrieval[measure], low: ci.low, high: ci.high, series };
  });
}

/** Mean distinct passages in the top-k per overlap, with its bootstrap CI, for `lineWithBand`. */
export function distinctRows(rows: readonly CostedRow[]): Record<string, number | string>[] {
  return bandRows(rows, "meanDistinct");
}

/** Share of queries whose top-k holds two chunks sharing source text, with its Wilson CI. */
export function overlappingTopKRows(rows: readonly CostedRow[]): Record<string, number | string>[] {
  return bandRows(rows, "queriesWithOverlappingTopK");
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

const first = (rows: readonly CostedRow[]) => rows[0];
const last = (rows: readonly CostedRow[]) => rows[rows.length - 1];

/** Distinct passages and repeated text in the plain top-k, at the smallest and the largest overlap. */
export function distinctFinding(grid: RedundancyRows, k: number): string {
  const p0 = first(grid.plain).retrieval;
  const pN = last(grid.plain).retrieval;
  const o0 = first(grid.plain).config.splitter.overlap;
  const oN = last(grid.plain).config.splitter.overlap;
  return (
    `At overlap ${o0} the top-${k} holds **${thousands(p0.meanDistinct, 2)}** ` +
    `distinct passages on average; at overlap ${oN}, ` +
    `**${thousands(pN.meanDistinct, 2)}** ` +
    `(95% CI ${thousands(pN.meanDistinctCI.low, 2)}–${thousands(pN.meanDistinctCI.high, 2)}), and ` +
    `${pct(pN.queriesWithOverlappingTopK)} of queries get the ` +
    `same text twice (vs ${pct(p0.queriesWithOverlappingTopK)}).`
  );
}

/** The paired verdict over the MMR grid, cheaper being fewer vectors, then a shallower first stage (the baseline). */
export function mmrDecision(grid: RedundancyRows, margin?: number): { cells: CostedRow[]; decision: Decision } {
  const cells = [...grid.reranked].sort(
    (a, b) => a.cost.storageBytes - b.cost.storageBytes || a.config.retrieval.k - b.config.retrieval.k,
  );
  return { cells, decision: decideByStorage(cells, { margin }) };
}

/** The best MMR cell against plain top-k; picked from the same data, only the paired rule may recommend one. */
export function bestMmrFinding(grid: RedundancyRows, k: number, margin?: number): string {
  const best = bestHitRateRow(grid.reranked);
  const p0 = first(grid.plain);
  const ci = best.retrieval.hitRateCI;
  const { cells, decision } = mmrDecision(grid, margin);
  const name = (i: number) => `overlap ${cells[i].config.splitter.overlap}, first stage ${cells[i].config.retrieval.k}`;
  return (
    `The best cell is overlap ${best.config.splitter.overlap} with a first stage of ${best.config.retrieval.k}: ` +
    `hit rate@${k} ${pct(best.retrieval.hitRate)} (95% CI ${pct(ci.low)}–${pct(ci.high)}), ` +
    `against ${pct(p0.retrieval.hitRate)} for plain top-${k} at overlap ${p0.config.splitter.overlap}. ` +
    `Paired over all ${cells.length} cells on the same ${thousands(decision.queries)} queries (cheaper: fewer vectors ` +
    `stored, then a shallower first stage): ${verdictText(decision, name)}`
  );
}

/** The dense reranker against MMR: best cells, distinct passages at the deepest first stage, and hits it costs. */
export function denseRerankFinding(grid: RedundancyRows, k: number, deepest: number, denseName: string): string {
  const bestDense = bestHitRateRow(grid.dense);
  const bestCell = bestHitRateRow(grid.reranked);
  const p0 = first(grid.plain).retrieval;
  const o0 = first(grid.plain).config.splitter.overlap;
  const oN = last(grid.plain).config.splitter.overlap;
  const cell = (rows: readonly CostedRow[], depth: number) =>
    rows.find((r) => r.config.splitter.overlap === oN && r.config.retrieval.k === depth)!.retrieval;
  const dN = cell(grid.dense, deepest);
  const mN = cell(grid.reranked, deepest);
  const d5 = cell(grid.dense, k);
  const ci = bestDense.retrieval.hitRateCI;
  return (
    `The best dense-reranked cell is overlap ${bestDense.config.splitter.overlap} with a first stage of ` +
    `${bestDense.config.retrieval.k}: hit rate@${k} ` +
    `**${pct(bestDense.retrieval.hitRate)}** (95% CI ${pct(ci.low)}–${pct(ci.high)}), against ` +
    `${pct(bestCell.retrieval.hitRate)} for the best MMR cell and ${pct(p0.hitRate)} for plain BM25 top-${k} ` +
    `at overlap ${o0} (dense: ${denseName}). ` +
    `At overlap ${oN} from a first stage of ${deepest}, the final ${k} hold **${thousands(dN.meanDistinct, 2)}** ` +
    `distinct passages after the dense reranker and **${thousands(mN.meanDistinct, 2)}** after MMR` +
    (dN.meanDistinct < mN.meanDistinct ? " (cosine keeps neighbours that repeat each other; MMR spreads them)" : "") +
    `, and the dense reranker's hit rate@${k} is ${pct(dN.hitRate)} against ${pct(d5.hitRate)} ` +
    `when it only reorders the top-${k}` +
    (dN.hitRate < d5.hitRate ? ": with this embedder, re-scoring a deeper list pushes answers out." : ".")
  );
}
