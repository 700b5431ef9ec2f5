// Notebook 03's query-source sections: the sweep with header and ICT queries side by side, ICT on a prose corpus, and
// the published agreement of ICT with labelled questions.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import type { SweepResult } from "../experiment/sweep";
import { loadRetrievalInputs, type RetrievalInputs } from "./inputs";
import { validationRows, type CorpusValidation } from "./query-validation";
import {
  hitRateAgainstFirst,
  recommendationCard,
  recommendOverlap,
  runStudySweeps,
  type Recommendation,
  type SplitterSweepSpec,
} from "./sweep";
import { pct } from "./format";
import { median } from "../stats/quantiles";
import { ICT_SETS_NO_OVERLAP } from "../experiment/proxies";

/** What a source's pick is called in prose, by the verdict's state, and the note after its hit rate. */
const PICK_WORDS = { decided: "recommended overlap", leaning: "leaning", undecided: "safe pick (undecided)" } as const;
const PICK_NOTES = {
  decided: "",
  leaning: ", leaning, not decided",
  undecided: ", the safe pick of an undecided verdict",
};

export interface SourceSweep {
  source: "headers" | "ict";
  inputs: RetrievalInputs;
  result: SweepResult;
  recommendation: Recommendation;
}

/** `querySample`: how many of each source's queries run (default auto). */
export type SourceSweepSpec = SplitterSweepSpec & { querySample?: string | number; headingLevels?: readonly number[] };

/** One sweep per query source the corpus can give; sources it cannot give are named with the reason. */
export async function runSourceSweeps(corpus: string, sources: readonly ("headers" | "ict")[], spec: SourceSweepSpec) {
  const sweeps: SourceSweep[] = [];
  const missing: { source: string; reason: string }[] = [];
  const { querySample, headingLevels } = spec;
  for (const source of sources) {
    let inputs: RetrievalInputs;
    try {
      inputs = loadRetrievalInputs(corpus, source, { querySample, headingLevels });
    } catch (error) {
      if (!(error instanceof SeamlabError)) throw error;
      missing.push({ source, reason: error.message });
      continue;
    }
    const [result] = await runStudySweeps(inputs, { splitters: [spec.splitter], ...spec });
    sweeps.push({ source, inputs, result, recommendation: recommendOverlap(result.curves[0]) });
  }
  return { sweeps, missing };
}

/** Short series names for a chart of several sources: "headers (150)", "ict (500)"; subtitles give the full labels. */
export function sourceSeriesLabels(sweeps: readonly SourceSweep[]): string[] {
  return sweeps.map((s) => `${s.source} (${s.inputs.queries.length})`);
}

/** The subtitle of the by-source chart: the corpus, each source's label, the bands and the picks. */
export function sourceSweepsSubtitle(description: string, bySource: { sweeps: readonly SourceSweep[] }): string {
  const labels = bySource.sweeps.map((s) => s.inputs.queryLabel).join(" against ");
  return `${description}; ${labels}; bands: Wilson 95% CI; paired-rule pick per source`;
}

/** One sentence per source (its recommended overlap and hit rate there), and the sources the corpus lacks. */
export function sourceRecommendationText(
  bySource: { sweeps: readonly SourceSweep[]; missing: readonly { source: string; reason: string }[] },
  k: number,
): string {
  const { sweeps, missing } = bySource;
  const parts = sweeps.map((s) => {
    const point = s.result.curves[0].points.find((p) => p.x === s.recommendation.overlap)!;
    const note = PICK_NOTES[s.recommendation.verdict];
    return `with ${s.inputs.queryLabel}, overlap **${s.recommendation.overlap}** (hit rate@${k} ${pct(point.y)}${note})`;
  });
  const agree = new Set(sweeps.map((s) => s.recommendation.overlap)).size === 1;
  const unsettledSweeps = sweeps.filter((s) => s.recommendation.verdict !== "decided");
  const unsettled = unsettledSweeps.map((s) => s.source);
  const allUndecided = unsettledSweeps.every((s) => s.recommendation.verdict === "undecided");
  const notDecided = allUndecided ? "undecided" : "not decided";
  return (
    `Recommended overlap ${parts.join("; ")}. ` +
    (sweeps.length < 2
      ? ""
      : agree
        ? "The sources agree on the overlap."
        : unsettled.length > 0
          ? `The picks differ, but ${unsettled.join(" and ")} ${unsettled.length > 1 ? "are" : "is"} ${notDecided}, ` +
            "so this is not yet evidence that the sources want different overlaps."
          : "The sources disagree: the knee depends on what the queries " +
            "ask for; trust the source closer to your users' questions.") +
    (missing.length > 0
      ? ` Not available on this corpus: ${missing.map((m) => `${m.source} (${m.reason})`).join("; ")}`
      : "") +
    (sweeps.some((s) => s.source === "ict") ? ` ${ICT_SETS_NO_OVERLAP}` : "")
  );
}

/** The table `npm run validate:ict` wrote, with a verdict computed from it; `available: false` without the file. */
export function validationSummary(root: string = projectRoot()) {
  const path = join(root, "data", "validation", "ict-vs-labelled.json");
  if (!existsSync(path))
    return {
      rows: [],
      caption: "",
      verdict: "No validation results yet: run `SEAMLAB_DATA_DIR=... npm run validate:ict`.",
      available: false,
    };
  const file = JSON.parse(readFileSync(path, "utf8")) as {
    grid: { splitters: string[]; sizes: number[]; overlaps: number[]; k: number };
    corpora: CorpusValidation[];
  };
  const of = (source: string) =>
    file.corpora.flatMap((c) => c.proxies.filter((p) => p.source === source).map((p) => ({ c, p })));
  const ict = of("ict");
  const kept = of("ict-kept");
  const taus = ict.map(({ p }) => p.tau).filter((t): t is number => typeof t === "number");
  const recs = ict.flatMap(({ p }) => p.recommendations);
  const keptRecs = kept.flatMap(({ p }) => p.recommendations);
  const agreeing = recs.filter((r) => r.agree).length;
  const within100 = recs.filter((r) => Math.abs(r.truth - r.proxy) <= 100).length;
  const below = recs.filter((r) => r.proxy < r.truth).length;
  const above = recs.filter((r) => r.proxy > r.truth).length;
  const keptAbove = keptRecs.filter((r) => r.proxy > r.truth).length;
  const weak = ict
    .filter(({ p }) => typeof p.tau !== "number" || p.tau < 0.6)
    .map(({ c, p }) => `${c.corpus} (${typeof p.tau === "number" ? p.tau.toFixed(2) : "n/a"})`);
  const gaps = ict.map(({ p }) => p.levelGap);
  const middle = (xs: number[]) => (xs.length > 0 ? median(xs) : 0);
  const headers = file.corpora.filter((c) => c.proxies.some((p) => p.source === "headers")).length;
  const verdict =
    `Over ${ict.length} labelled corpora, ICT queries (sentence removed) rank the ${ict[0]?.p.configs ?? 0} configs ` +
    `much as the labelled questions do: median Kendall tau **${middle(taus).toFixed(2)}** ` +
    `(from ${Math.min(...taus).toFixed(2)} to ${Math.max(...taus).toFixed(2)}). **They do not reliably reproduce ` +
    `the recommended overlap: the same value on ${agreeing} of ${recs.length} curves** ` +
    `(within 100 characters on ${within100}; smaller on ${below}, larger on ${above}). Their hit rates sit a median ` +
    `${Math.abs(middle(gaps)).toFixed(1)} points ${middle(gaps) < 0 ? "below" : "above"} the labelled ones, ` +
    "so read ICT for the ranking and the shape of the curve, not for its level or an exact knee. " +
    `With the sentence kept in the text, ICT recommends more overlap than the labelled questions on ${keptAbove} of ` +
    `${keptRecs.length} curves (its gold span is longer): keep the default, sentence removed. ` +
    (weak.length > 0 ? `Rank agreement is weakest on ${weak.join(" and ")}. ` : "") +
    (headers === 0 ? "None of these corpora has markdown headings, so header queries could not be compared." : "");
  return {
    rows: validationRows(file.corpora),
    caption:
      `ICT, ICT with the sentence kept, and header queries against labelled questions, same sweep on each corpus ` +
      `(${file.grid.splitters.join(" and ")} at ${file.grid.sizes.join(" and ")} chars, overlaps ` +
      `${file.grid.overlaps.join(", ")}, BM25, hit rate@${file.grid.k}); tau = Kendall tau-b of the configs' hit ` +
      `rates; "same overlap" = recommended overlap (paired rule; its safe pick when undecided) equal, per splitter and ` +
      "size; gap = mean hit rate, proxy minus labelled",
    verdict,
    available: true,
  };
}

/** The overlap sweep of a prose corpus with ICT queries (one curve per splitter) and its recommendation. */
export async function runProseIctSweeps(
  corpus: string,
  spec: { splitters: string[]; size: number; overlaps: number[]; k: number; querySample?: string | number },
) {
  const inputs = loadRetrievalInputs(corpus, "ict", { querySample: spec.querySample });
  const sweeps = await runStudySweeps(inputs, spec);
  const curve = sweeps[0].curves[0];
  const recommendation = recommendOverlap(curve);
  return {
    inputs,
    sweeps,
    recommendation,
    text:
      `**${corpus} (${inputs.queryLabel}): ${PICK_WORDS[recommendation.verdict]} for \`${curve.splitter}\` at size ` +
      `${spec.size}: ${recommendation.overlap} characters.** ${recommendation.reason} ` +
      `Hit rate@${spec.k} there: ${hitRateAgainstFirst(curve, recommendation.overlap)}. ` +
      "ICT hit rates are low in absolute terms (one sentence has to find its neighbours); read the shape of the curve. " +
      ICT_SETS_NO_OVERLAP,
    subtitle:
      `${inputs.description}; ${inputs.queryLabel}; bands: Wilson 95% CI; ` +
      `paired-rule pick (and Kneedle's knee) of ${curve.splitter} marked`,
    card: recommendationCard(
      curve,
      recommendation,
      `${curve.splitter} at size ${spec.size}, ${inputs.queryLabel}`,
      `Recommended overlap on ${corpus} (ICT queries)`,
    ),
  };
}
