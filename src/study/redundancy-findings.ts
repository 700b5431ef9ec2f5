// The sentences notebook 04 writes under its charts.
import type { CostedRow } from "../experiment/run";
import { decideByStorage, verdictText } from "../experiment/verdict";
import type { Decision } from "../stats/non-inferiority";
import { pct } from "./format";
import { thousands } from "../stats/format";
import { bestHitRateRow, type RedundancyRows } from "./redundancy";

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
