// The overlap sweep of notebook 03: hit rate vs overlap for a few splitters (cached grid), the knee by both
// methods, the recommendation, and the cost of each overlap relative to none.
import type { KneeReport } from "../experiment/knee";
import { runOverlapSweep, type SweepCurve, type SweepResult } from "../experiment/sweep";
import type { RetrievalInputs } from "./inputs";
import { lsaSpec } from "./dense";
import { pct } from "./format";

export interface StudySweepSpec {
  splitters: string[];
  size: number;
  overlaps: number[];
  k: number;
}

/** One cached sweep per splitter (BM25, top-k, no reranker), run in this process. */
export async function runStudySweeps(inputs: RetrievalInputs, spec: StudySweepSpec): Promise<SweepResult[]> {
  const results: SweepResult[] = [];
  for (const splitter of spec.splitters) {
    results.push(
      await runOverlapSweep(
        { docs: inputs.docs, queries: inputs.queries },
        { splitter, size: spec.size, overlaps: spec.overlaps, ks: [spec.k] },
        { workers: 0, quiet: true, metric: "hitRate" },
      ),
    );
  }
  return results;
}

export interface DenseSweepSpec {
  splitter: string;
  size: number;
  overlaps: number[];
  k: number;
  /** lsa dimensions requested (the model is fitted on each overlap's chunks). */
  embedderDims: number;
}

/** The same cached overlap sweep with the `dense` retriever over an `lsa` embedder instead of BM25. */
export async function runDenseSweep(inputs: RetrievalInputs, spec: DenseSweepSpec): Promise<SweepResult> {
  return runOverlapSweep(
    { docs: inputs.docs, queries: inputs.queries },
    {
      splitter: spec.splitter,
      size: spec.size,
      overlaps: spec.overlaps,
      ks: [spec.k],
      retriever: "dense",
      retrieverSettings: { embedder: lsaSpec(spec.embedderDims) },
    },
    { workers: 0, quiet: true, metric: "hitRate" },
  );
}

/**
 * `lineWithBand` rows: hit rate with its Wilson CI per overlap, one series per result (named by `labels[i]`,
 * default the splitter).
 */
export function hitRateRows(
  results: readonly SweepResult[],
  labels?: readonly string[],
): Record<string, number | string>[] {
  const rows: Record<string, number | string>[] = [];
  results.forEach((result, i) => {
    const curve = result.curves[0];
    const series = labels?.[i] ?? curve.splitter;
    for (const p of curve.points) rows.push({ x: p.x, y: p.y, low: p.low ?? p.y, high: p.high ?? p.y, series });
  });
  return rows;
}

/** `lineWithBand` rows of the index cost: chunks and embedded tokens relative to overlap 0, per splitter. */
export function costCurveRows(results: readonly SweepResult[]): Record<string, number | string>[] {
  const rows: Record<string, number | string>[] = [];
  for (const result of results) {
    for (const row of result.rows) {
      const label = row.config.splitter.splitter;
      if (row.cost.storageRatio !== null)
        rows.push({ x: row.config.splitter.overlap, y: row.cost.storageRatio, series: `${label} vectors` });
      if (row.cost.tokensRatio !== null)
        rows.push({ x: row.config.splitter.overlap, y: row.cost.tokensRatio, series: `${label} tokens` });
    }
  }
  return rows;
}

export interface Recommendation {
  overlap: number;
  /** How it was chosen, in a sentence. */
  reason: string;
  knee: KneeReport;
}

/**
 * The recommended overlap of a curve: the plateau rule's point (the smallest overlap whose CI reaches the best
 * hit rate: the data cannot tell it from the best, and it costs least), with Kneedle's answer beside it.
 */
export function recommendOverlap(curve: SweepCurve): Recommendation {
  const knee = curve.knee;
  const plateau = knee.plateau;
  const kneedle = knee.kneedle;
  if (!plateau) return { overlap: 0, reason: "the sweep has no points", knee };
  const best = `The best hit rate (${pct(plateau.bestY)}) is at overlap ${plateau.bestX}`;
  const why =
    plateau.rule === "best"
      ? `${best}, and no smaller overlap comes within its confidence interval`
      : `${best}, and overlap ${plateau.x} is the smallest whose 95% CI reaches it`;
  const kneedleText = kneedle ? `Kneedle puts the knee at ${kneedle.x}` : "Kneedle finds no knee";
  const agreement = knee.agree
    ? "both methods agree"
    : `${kneedleText}; the plateau rule is preferred because it accounts for the CIs`;
  return { overlap: plateau.x, reason: `${why}; ${agreement}.`, knee };
}

/** The knee markers for `lineWithBand`: one rule per method (merged when they agree), labels prefixed by `prefix`. */
export function kneeMarkers(knee: KneeReport, prefix = ""): { x: number; label: string }[] {
  if (knee.kneedle && knee.plateau && knee.kneedle.x === knee.plateau.x)
    return [{ x: knee.plateau.x, label: `${prefix}knee (Kneedle = plateau): ${knee.plateau.x}` }];
  const markers: { x: number; label: string }[] = [];
  if (knee.plateau) markers.push({ x: knee.plateau.x, label: `${prefix}plateau: ${knee.plateau.x}` });
  if (knee.kneedle) markers.push({ x: knee.kneedle.x, label: `${prefix}Kneedle: ${knee.kneedle.x}` });
  return markers;
}

/**
 * Knee markers of several curves on one chart: the plateau rule's knee of each (the recommendation; Kneedle's
 * would crowd the labels, the prose gives it), curves sharing a knee sharing one rule: "BM25 & dense knee: 0".
 */
export function combinedKneeMarkers(
  curves: readonly { knee: KneeReport; name: string }[],
): { x: number; label: string }[] {
  const byX = new Map<number, string[]>();
  for (const c of curves) if (c.knee.plateau) byX.set(c.knee.plateau.x, [...(byX.get(c.knee.plateau.x) ?? []), c.name]);
  return [...byX.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([x, names]) => ({ x, label: `${names.join(" & ")} knee: ${x}` }));
}

/** The cost model table of one sweep: per overlap, chunks, tokens, embedding cost and vector storage vs overlap 0. */
export function costTableRows(result: SweepResult): Record<string, number | string | null>[] {
  return result.rows.map((row) => ({
    overlap: row.config.splitter.overlap,
    chunks: row.seams.chunks,
    "tokens embedded": row.tokensEmbedded,
    "tokens vs overlap 0": row.cost.tokensRatio,
    "embedding cost ($ at 0.13/M tokens)": row.cost.embeddingCost,
    "vector storage (MB, 1536-d float32)": row.cost.storageBytes / 1e6,
    "storage vs overlap 0": row.cost.storageRatio,
    [`hit rate @${row.config.retrieval.k} (%)`]: 100 * row.retrieval.hitRate,
  }));
}
