// The overlap sweep of notebook 03: hit rate vs overlap per splitter, the recommendation, the cost of each overlap,
// each overlap's paired difference from the best (and from overlap 0) on the same queries, and the sentences under
// its charts. The sweeps index every document and run every query; damage and tokens are measured on a sample.
import type { Doc, Query } from "../core/types";
import { defaultSampleRequest, type SampleRequest } from "../corpus/sample";
import type { ExperimentConfig } from "../experiment/grid";
import { resolveRowSample, wholeCorpusChars } from "../experiment/row-sample";
import type { SweepInputs } from "../experiment/rows";
import type { CostedRow } from "../experiment/run";
import { beyondPlannedQueries, marginText, verdictCard, verdictHeadline, verdictText } from "../experiment/verdict";
import {
  runOverlapSweep,
  sweepConfigs,
  type DecisionSettings,
  type OverlapSweepSpec,
  type SweepCurve,
  type SweepResult,
} from "../experiment/sweep";
import { withSampleAdvice } from "../experiment/sample-advice";
import { querySampleParameter, type RetrievalInputs } from "./inputs";
import { lsaSpec } from "./dense";
import { pct, points, pointsInterval } from "./format";
import { formatP, thousands } from "../stats/format";

const MARKER_WORDS = { decided: "paired rule", leaning: "leaning", undecided: "safe pick (undecided)" } as const;

/** A study's sweep inputs: every document indexed and every query run, seam damage and embedded tokens measured on a
 * seeded document sample as `seamlab sweep --sample auto` does (the whole corpus up to `wholeUpTo` characters). */
export function studySweepInputs(
  inputs: { docs: readonly Doc[]; queries: readonly Query[] },
  configs: readonly ExperimentConfig[],
  wholeUpTo = wholeCorpusChars,
  request: SampleRequest = defaultSampleRequest,
): SweepInputs {
  const sample = resolveRowSample(inputs.docs, configs, request, 1, wholeUpTo);
  return { docs: inputs.docs, queries: inputs.queries, ...(sample ? { sample } : {}) };
}

/** A sentence saying the embedded tokens of `rows` are estimated on a document sample, or "" when they are not. */
export function tokenSampleNote(rows: readonly CostedRow[]): string {
  const sample = rows.find((row) => row.sample)?.sample;
  if (!sample) return "";
  return (
    `Tokens embedded are estimated from ${sample.description} (tokens per chunk character there, times every ` +
    "chunk's characters); chunk counts and retrieval cover every document."
  );
}

/** A cached overlap sweep as the notebooks run it: in this thread, quietly, on hit rate, with the sample's advice. */
export async function runStudyOverlapSweep(
  inputs: RetrievalInputs,
  sweep: OverlapSweepSpec,
  decision: DecisionSettings = {},
): Promise<SweepResult> {
  const result = await runOverlapSweep(studySweepInputs(inputs, sweepConfigs(sweep)), sweep, {
    workers: 0,
    quiet: true,
    metric: "hitRate",
    margin: decision.margin,
  });
  return withSampleAdvice(result, inputs.querySample, querySampleParameter);
}

/** One splitter's overlap sweep as a notebook asks for it; `margin` a proportion (default 0.01, as `seamlab sweep`'s). */
export interface SplitterSweepSpec {
  splitter: string;
  size: number;
  overlaps: number[];
  k: number;
  margin?: number;
}

export type StudySweepSpec = Omit<SplitterSweepSpec, "splitter"> & { splitters: string[] };

/** One cached sweep per splitter (BM25, top-k, no reranker), run in this process. */
export async function runStudySweeps(inputs: RetrievalInputs, spec: StudySweepSpec): Promise<SweepResult[]> {
  const results: SweepResult[] = [];
  for (const splitter of spec.splitters) {
    const sweep = { splitter, size: spec.size, overlaps: spec.overlaps, ks: [spec.k] };
    results.push(await runStudyOverlapSweep(inputs, sweep, { margin: spec.margin }));
  }
  return results;
}

/** `embedderDims`: lsa dimensions (the model is fitted on each overlap's chunks). */
export type DenseSweepSpec = Omit<SplitterSweepSpec, "margin"> & { embedderDims: number };

/** The same cached overlap sweep with the `dense` retriever over an `lsa` embedder instead of BM25. */
export async function runDenseSweep(inputs: RetrievalInputs, spec: DenseSweepSpec): Promise<SweepResult> {
  return runStudyOverlapSweep(inputs, {
    splitter: spec.splitter,
    size: spec.size,
    overlaps: spec.overlaps,
    ks: [spec.k],
    retriever: "dense",
    retrieverSettings: { embedder: lsaSpec(spec.embedderDims) },
  });
}

/** `lineWithBand` rows: hit rate with its Wilson CI per overlap, one series per result (`labels[i]` or the splitter). */
export function hitRateRows(
  results: readonly SweepResult[],
  labels?: readonly string[],
): Record<string, number | string>[] {
  return results.flatMap((result, i) => {
    const curve = result.curves[0];
    const series = labels?.[i] ?? curve.splitter;
    return curve.points.map((p) => ({ x: p.x, y: p.y, low: p.low ?? p.y, high: p.high ?? p.y, series }));
  });
}

/** `lineWithBand` rows of the index cost: chunks and embedded tokens relative to overlap 0, per splitter. */
export function costCurveRows(results: readonly SweepResult[]): Record<string, number | string>[] {
  return results.flatMap((result) =>
    result.rows.flatMap(({ config, cost }) => {
      const { splitter, overlap } = config.splitter;
      const row = (y: number | null, what: string) =>
        y === null ? [] : [{ x: overlap, y, series: `${splitter} ${what}` }];
      return [...row(cost.storageRatio, "vectors"), ...row(cost.tokensRatio, "tokens")];
    }),
  );
}

/** `overlap`: the paired rule's pick (the safe pick when undecided); `reason`: the verdict, Kneedle second. */
export type Recommendation = ReturnType<typeof recommendOverlap>;

export function recommendedOverlap(curve: SweepCurve): number {
  return curve.points[curve.decision.choice].x;
}

/** The recommended overlap of a curve by the paired rule, with Kneedle's knee as a second opinion on its shape. */
export function recommendOverlap(curve: SweepCurve) {
  const knee = curve.knee;
  const decision = curve.decision;
  const name = (i: number) => `overlap ${curve.points[i].x}`;
  const kneedle = knee.kneedle
    ? `Second opinion on the curve's shape: Kneedle puts the knee at overlap ${knee.kneedle.x}.`
    : `Second opinion on the curve's shape: Kneedle finds no knee.`;
  return {
    overlap: curve.points[decision.choice].x,
    verdict: decision.verdict,
    reason: `${verdictText(decision, name)} ${kneedle}`,
    headline: verdictHeadline(decision, (i) => `${curve.points[i].x} chars`),
    card: verdictCard(decision, name, (i) => String(curve.points[i].x), " chars"),
    knee,
    decision,
  };
}

/** The index card of a recommendation: value, label (with the margin) and note (the verdict). */
export function recommendationCard(
  curve: SweepCurve,
  rec: Recommendation,
  context: string,
  label = "Recommended overlap",
): { value: string; options: { label: string; note: string } } {
  const kneedle = rec.knee.kneedle ? `overlap ${rec.knee.kneedle.x}` : "no knee";
  return {
    value: rec.card.value,
    options: {
      label: `${label} (paired rule, margin ${marginText(rec.decision.margin)})`,
      note: `${context}: ${rec.card.note} Kneedle (second opinion on the shape): ${kneedle}.`,
    },
  };
}

/** Markers for `lineWithBand`: the paired rule's pick (or its candidates when undecided) and Kneedle's knee. */
export function recommendationMarkers(rec: Recommendation, prefix = ""): { x: number; label: string }[] {
  const markers = [{ x: rec.overlap, label: `${prefix}${MARKER_WORDS[rec.verdict]}: ${rec.overlap}` }];
  if (rec.knee.kneedle && rec.knee.kneedle.x !== rec.overlap)
    markers.push({ x: rec.knee.kneedle.x, label: `${prefix}Kneedle: ${rec.knee.kneedle.x}` });
  return markers;
}

/** The paired rule's picks of several curves, curves with the same pick sharing one rule (no Kneedle: too crowded). */
export function combinedRecommendationMarkers(curves: readonly { rec: Recommendation; name: string }[]) {
  const byX = new Map<number, string[]>();
  for (const { rec, name } of curves) {
    const named = rec.verdict === "decided" ? name : `${name} (${rec.verdict})`;
    byX.set(rec.overlap, [...(byX.get(rec.overlap) ?? []), named]);
  }
  return [...byX.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([x, names]) => ({ x, label: `${names.join(" & ")} paired rule: ${x}` }));
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
    [`hit rate @${row.config.retrieval.k} (%)`]: points(row.retrieval.hitRate),
  }));
}

const bestPoint = (curve: SweepCurve) => curve.points.reduce((a, b) => (b.y > a.y ? b : a));
const pointsText = (fraction: number) => thousands(100 * fraction, 1);

/** "66.3% (95% CI 61.2%–71.0%), against 60.1% at overlap 0": the hit rate at `overlap`, and at the first overlap. */
export function hitRateAgainstFirst(curve: SweepCurve, overlap: number): string {
  const chosen = curve.points.find((p) => p.x === overlap)!;
  const first = curve.points[0];
  return (
    `${pct(chosen.y)} (95% CI ${pct(chosen.low ?? chosen.y)}–${pct(chosen.high ?? chosen.y)}), ` +
    `against ${pct(first.y)} at overlap ${first.x}`
  );
}

/** The paired verdict (margin, evidence, queries needed; Kneedle second), and the pick's hit rate against overlap 0. */
export function recommendationFinding(curve: SweepCurve, rec: Recommendation, size: number, k: number): string {
  return (
    `**\`${curve.splitter}\` at size ${size}, hit rate@${k}:** ${rec.reason} ` +
    `Hit rate@${k} at overlap ${rec.overlap}: ${hitRateAgainstFirst(curve, rec.overlap)}.`
  );
}

/** What the largest overlap costs against overlap 0 (vectors stored, tokens embedded) and what it buys. */
export function costFinding(curve: SweepCurve, result?: SweepResult): string {
  const zero = curve.points[0];
  const last = curve.points[curve.points.length - 1];
  const note = result ? tokenSampleNote(result.rows) : "";
  return (
    `Going from overlap ${zero.x} to ${last.x} multiplies the vectors stored by ${thousands(last.storageRatio ?? 1, 2)} ` +
    `and the tokens embedded by ${thousands(last.tokensRatio ?? 1, 2)}, ` +
    `for a hit-rate change of ${pointsText(last.y - zero.y)} points.${note ? ` ${note}` : ""}`
  );
}

/** Dense retrieval's recommendation and gains from overlap, beside BM25's (`curve`) on the same chunks. */
export function denseFinding(
  curve: SweepCurve,
  denseCurve: SweepCurve,
  denseRec: Recommendation,
  embedder: string,
  k: number,
): string {
  const zero = curve.points[0];
  const dBest = bestPoint(denseCurve);
  const bBest = bestPoint(curve);
  const d0 = denseCurve.points[0];
  return (
    `**Dense retrieval (${embedder}):** ${denseRec.reason} ` +
    `Its best hit rate@${k}, ${pct(dBest.y)} (95% CI ${pct(dBest.low ?? dBest.y)}–${pct(dBest.high ?? dBest.y)}) ` +
    `at overlap ${dBest.x}, is ${pointsText(dBest.y - d0.y)} points above overlap ${d0.x} (${pct(d0.y)}); ` +
    `BM25's best is ${pointsText(bBest.y - zero.y)} points above its own. ` +
    `At overlap ${d0.x}, dense is ${thousands(Math.abs(100 * (d0.y - zero.y)), 1)} points ` +
    `${d0.y >= zero.y ? "above" : "below"} BM25 (${pct(d0.y)} against ${pct(zero.y)}).`
  );
}

/** `lineWithBand` rows: hit rate − best per overlap in points, the paired 95% CI as the band, a series per splitter. */
export function differenceFromBestRows(curves: readonly SweepCurve[]): Record<string, number | string>[] {
  return curves.flatMap((curve) =>
    curve.points.map((p, j) => {
      const d = curve.decision.configs[j].fromBest;
      return { x: p.x, y: -points(d.diff), low: -points(d.high), high: -points(d.low), series: curve.splitter };
    }),
  );
}

/** The band a difference must stay inside to count as "as good as the best": from −margin to 0, in points. */
export function marginBand(curve: SweepCurve): { from: number; to: number; label: string } {
  const m = 100 * curve.decision.margin;
  return { from: -m, to: 0, label: `margin: within ${marginText(curve.decision.margin)} of the best` };
}

/** One row per overlap: hit rate, the paired differences from the best and from overlap 0, status, and the queries in
 * all the rule would need (none beside the best: its own CI only measures how lucky the pick may be). */
export function pairedTableRows(curve: SweepCurve): Record<string, number | string>[] {
  const d = curve.decision;
  const base = curve.points[d.baseline].x;
  return curve.points.map((p, i) => {
    const c = d.configs[i];
    return {
      overlap: p.x,
      "hit rate (%)": points(c.rate),
      "best − it (points)": points(c.fromBest.diff),
      "paired 95% CI": pointsInterval(c.fromBest.low, c.fromBest.high),
      "McNemar p vs best": formatP(c.fromBest.mcnemarP),
      [`it − overlap ${base} (points)`]: points(c.fromBaseline.diff),
      [`95% CI vs ${base}`]: pointsInterval(c.fromBaseline.low, c.fromBaseline.high),
      [`McNemar p vs ${base}`]: formatP(c.fromBaseline.mcnemarP),
      status: i === d.best ? "best" : c.status,
      "queries to decide (in all)":
        i === d.best || c.queriesNeeded === null
          ? ""
          : Number.isFinite(c.queriesNeeded)
            ? c.queriesNeeded
            : beyondPlannedQueries,
      "vectors vs overlap 0": p.storageRatio === null ? "" : Math.round(100 * p.storageRatio) / 100,
    };
  });
}
