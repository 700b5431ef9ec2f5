// The report's one recommendation ("Do this"), from notebook 03's sweep exactly as `seamlab sweep` decides it, with how
// sure it is, whether it moves, the command that would settle it, and the exported config.
import { SeamlabError } from "../core/errors";
import { openCache } from "../experiment/cache";
import { chosenExport, exportStamp, shellQuote } from "../experiment/export";
import { curveExposedVerdicts, sweepExposures, type ExposedVerdict, type SizeExposure } from "../experiment/exposure";
import { curveStability } from "../experiment/stability";
import type { SweepResult } from "../experiment/sweep";
import { marginText, verdictText } from "../experiment/verdict";
import { queryDropsText } from "../retrieval/query-source";
import type { RecommendationPayload } from "./types";
import { thousands } from "../stats/format";
import type { RetrievalInputs } from "./inputs";
import type { EvaluationInputs } from "../retrieval/inputs";
import type { SourceSweepSpec } from "./query-sources";

/** The notebook's parameters behind the sweep, as `seamlab sweep` flags take them; `queries` undefined or "": headers
 * when the corpus has them, else ICT; `margin` a proportion (0.01 = 1 point). */
export type RecommendationSettings = Omit<SourceSweepSpec, "margin"> & {
  corpus: string;
  queries?: string;
  margin: number;
};

/** The `seamlab sweep` flags that give this verdict again (and, with a larger query sample, would settle it). */
export function sweepArgv(settings: RecommendationSettings, queryKind: string): string[] {
  const argv = ["--corpus", settings.corpus, "--queries", queryKind, "--splitter", settings.splitter];
  argv.push("--size", String(settings.size), "--overlaps", settings.overlaps.join(","), "--k", String(settings.k));
  argv.push("--margin", String(Number((100 * settings.margin).toPrecision(12))));
  if (queryKind === "headers" && settings.headingLevels)
    argv.push("--heading-levels", settings.headingLevels.join(","));
  if (settings.querySample !== undefined) argv.push("--query-sample", String(settings.querySample));
  return argv;
}

/** The `--queries` value the sweep used: headers, ict, or the labelled file as given. */
function queriesFlag(inputs: RetrievalInputs, settings: RecommendationSettings): string {
  if (inputs.queryKind === "header") return "headers";
  if (inputs.queryKind === "ict") return "ict";
  return settings.queries ?? "labelled.csv";
}

const command = (argv: readonly string[]) => ["npx", "seamlab", "sweep", ...argv].map(shellQuote).join(" ");

/** What would settle a leaning or undecided verdict: more of the source's queries, else a larger labelled file. */
export function settleCommand(
  inputs: RetrievalInputs,
  settings: RecommendationSettings,
  queriesNeeded: number | null,
): string | undefined {
  if (queriesNeeded === null) return undefined;
  const base = sweepArgv({ ...settings, querySample: undefined }, queriesFlag(inputs, settings));
  if (!Number.isFinite(queriesNeeded))
    return `${command(base)}  # no query count up to 10,000,000 would settle it: widen --margin`;
  const population = inputs.querySample.population;
  if (queriesNeeded <= population) return command([...base, "--query-sample", String(queriesNeeded)]);
  const labelled = sweepArgv({ ...settings, querySample: undefined }, "your-questions.csv");
  return (
    `${command(labelled)}  # needs about ${thousands(queriesNeeded)} queries; this corpus gives only ` +
    `${thousands(population)} ${inputs.queryKind} queries: label more questions`
  );
}

/** One line on exposure: "overlap can change at most 31% of these 376 queries". */
export function exposureText(exposure: SizeExposure, verdict: ExposedVerdict): string {
  const share = `${(100 * exposure.share).toFixed(0)}%`;
  const head = `overlap can change at most ${share} of these ${thousands(exposure.queries)} queries`;
  if (verdict.why === "too few exposed queries")
    return `${head} (${thousands(exposure.exposed)} where a seam can cut the gold span: too few to decide anything on them)`;
  if (verdict.why === "exposed share within the margin")
    return `${head}: no overlap can move the hit rate by the margin through seams`;
  return `${head} (${thousands(exposure.exposed)} where a seam can cut the gold span)`;
}

/** The first curve's seam exposure and its verdict on the exposed queries. */
export type CurveExposure = NonNullable<ReturnType<typeof curveExposedVerdicts>[number]>;

/** The first curve's seam exposure as `seamlab sweep` computes it, with the paired verdict on the exposed queries. */
export async function sweepExposure(
  inputs: RetrievalInputs,
  result: SweepResult,
  margin: number,
): Promise<CurveExposure | undefined> {
  const evaluation = loadedEvaluation(inputs, "sweepExposure");
  const curve = result.curves[0];
  const sweep = { curves: [curve], rows: result.rows };
  const exposures = await sweepExposures(evaluation.docs, evaluation.queries, sweep, openCache());
  return curveExposedVerdicts([curve], result.rows, exposures, { margin })[0];
}

function loadedEvaluation(inputs: RetrievalInputs, caller: string): EvaluationInputs {
  if (!inputs.evaluation)
    throw new SeamlabError(`${caller} needs inputs loaded with their queries (loadRetrievalInputs).`);
  return inputs.evaluation;
}

/** The first curve's recommendation, with its exposure and its stability against other sources' sweeps if given. */
export async function sweepRecommendation(
  inputs: RetrievalInputs,
  result: SweepResult,
  settings: RecommendationSettings,
  sources: Readonly<Record<string, SweepResult>> = {},
  exposure?: CurveExposure,
): Promise<{ payload: RecommendationPayload; exposure?: CurveExposure }> {
  const curve = result.curves[0];
  const decision = curve.decision;
  const name = (i: number) => `overlap ${curve.points[i].x}`;
  const evaluation = loadedEvaluation(inputs, "sweepRecommendation");
  const stability = curveStability(curve, result.rows, {
    margin: settings.margin,
    source: inputs.queryKind === "header" ? "headers" : inputs.queryKind,
    sources: Object.fromEntries(Object.entries(sources).map(([source, each]) => [source, each.curves[0].decision])),
  });
  const argv = sweepArgv(settings, queriesFlag(inputs, settings));
  const exported = chosenExport({ argv, inputs: evaluation, result, ...exportStamp() });
  const chosen = curve.points[decision.choice].x;
  const config = `${curve.splitter}, ${curve.size} ${curve.unit}, overlap ${chosen}`;
  const sureness = [
    `a ${marginText(decision.margin)} margin on ${inputs.queryLabel} (${queryDropsText(evaluation.source)})`,
    `hit rate@${curve.k} ${(100 * curve.points[decision.choice].y).toFixed(1)}% at the choice`,
    exposure ? exposureText(exposure.exposure, exposure.verdict) : undefined,
  ]
    .filter(Boolean)
    .join("; ");
  const payload: RecommendationPayload = {
    state: decision.verdict,
    action: decision.verdict === "undecided" ? `${config} (the safe pick)` : config,
    sureness,
    stability: stability.text,
    reason: verdictText(decision, name),
    settle: decision.verdict === "decided" ? undefined : settleCommand(inputs, settings, decision.queriesNeeded),
    exported: exported ? (JSON.parse(JSON.stringify(exported)) as Record<string, unknown>) : undefined,
  };
  return { payload, exposure };
}
export type SourceResults = Record<string, SweepResult>;
