// Does a query proxy (headers, ICT) lead to the overlap a user's own labelled questions lead to? Pure comparisons of
// sweep curves run with each query source.
import { kendallTauB } from "../stats/kendall";
import type { SweepCurve } from "./sweep";

export type ProxyComparison = ReturnType<typeof compareProxy>;

/** "recursive@500 k5": curves match on splitter, size, unit, depth, reranker and context budget. */
export function curveKey(curve: SweepCurve): string {
  const budget = curve.contextBudget ? ` budget ${JSON.stringify(curve.contextBudget)}` : "";
  const unit = curve.unit === "chars" ? "" : ` ${curve.unit}`;
  const rerank = curve.reranker === "none" ? "" : ` ${curve.reranker}@${curve.finalK}`;
  return `${curve.splitter}@${curve.size}${unit} k${curve.k}${rerank}${budget}`;
}

const sameOverlaps = (a: SweepCurve, b: SweepCurve) =>
  a.points.length === b.points.length && a.points.every((p, i) => p.x === b.points[i].x);

const statuses = (curve: SweepCurve) => curve.decision.configs.map((c) => c.status);

/** One curve seen by the labelled questions and by a proxy; `labelledSet`: the overlaps they do not show worse. */
function compareCurve(labelled: SweepCurve, proxy: SweepCurve) {
  const overlaps = labelled.points.map((p) => p.x);
  const labelledStatus = statuses(labelled);
  const labelledSet = overlaps.filter((_, i) => labelledStatus[i] !== "worse");
  const labelledChoice = labelled.decision.choice;
  const proxyChoice = proxy.decision.choice;
  const proxyPick = overlaps[proxyChoice];
  return {
    curve: curveKey(labelled).replace(/ k\d+$/, ""),
    overlaps,
    labelledPick: overlaps[labelledChoice],
    proxyPick,
    labelledVerdict: labelled.decision.verdict,
    proxyVerdict: proxy.decision.verdict,
    labelledSet,
    inSet: labelledSet.includes(proxyPick),
    steps: Math.abs(labelledChoice - proxyChoice),
    labelledStatus,
    proxyStatus: statuses(proxy),
  };
}

/** Compares a proxy's curves with the labelled questions' on the curves both have with the same overlaps. */
export function compareProxy(labelled: readonly SweepCurve[], proxy: readonly SweepCurve[]) {
  const byKey = new Map(proxy.map((c) => [curveKey(c), c]));
  const pairs = labelled.flatMap((l) => {
    const p = byKey.get(curveKey(l));
    return p && sameOverlaps(l, p) ? [{ l, p }] : [];
  });
  if (pairs.length === 0)
    throw new Error("compareProxy: no curve of the proxy matches a labelled curve (same splitter, size and overlaps).");
  const curves = pairs.map(({ l, p }) => compareCurve(l, p));
  const tau = kendallTauB(
    pairs.flatMap(({ l }) => l.points.map((pt) => pt.y)),
    pairs.flatMap(({ p }) => p.points.map((pt) => pt.y)),
  );
  const configs = curves.reduce((s, c) => s + c.overlaps.length, 0);
  const informative = curves.filter((c) => c.labelledSet.length < c.overlaps.length);
  const same = curves.reduce((s, c) => s + c.labelledStatus.filter((st, i) => st === c.proxyStatus[i]).length, 0);
  return {
    tau,
    configs,
    curves,
    samePick: curves.filter((c) => c.steps === 0).length,
    nearPick: curves.filter((c) => c.steps <= 1).length,
    inSet: curves.filter((c) => c.inSet).length,
    // Curves whose labelled set rules an overlap out (elsewhere any pick lies in it), and of those, picks inside.
    informative: informative.length,
    informativeInSet: informative.filter((c) => c.inSet).length,
    // The share of configs whose paired status is the same with the proxy's queries as with the labelled ones.
    statusAgreement: same / configs,
  };
}

/** The rule `trustedProxy` applies, in words. */
export const TRUST_RULE =
  "A proxy is trusted to set the overlap when its Kendall tau with the labelled hit rates is at least 0.5 and its " +
  "pick lies inside the labelled verdict's set (the overlaps the labelled questions do not show worse than their " +
  "best) on at least 3 of every 4 curves where that set rules an overlap out (curves where it rules none out " +
  "cannot test a pick; with none, no proxy is trusted); among trusted proxies, the one with more picks inside, then " +
  "the higher tau. A proxy with tau at least 0.5 that fails the second test ranks configs but does not set the " +
  "overlap.";

/** Least Kendall tau for a proxy's ranking of configs to count as agreeing. */
export const MIN_TAU = 0.5;

const enoughInSet = (c: ProxyComparison) =>
  c.informative > 0 && c.informativeInSet >= Math.ceil((3 * c.informative) / 4);

/** Which proxy to trust, by `TRUST_RULE`; `ranksOnly`: those that rank configs alike but miss the overlap. */
export function trustedProxy(proxies: readonly { source: string; comparison: ProxyComparison }[]) {
  const ranking = proxies.filter((p) => p.comparison.tau >= MIN_TAU);
  const trusted = ranking
    .filter((p) => enoughInSet(p.comparison))
    .sort(
      (a, b) => b.comparison.informativeInSet - a.comparison.informativeInSet || b.comparison.tau - a.comparison.tau,
    )[0];
  return {
    trusted: trusted ? trusted.source : null,
    ranksOnly: ranking.filter((p) => !enoughInSet(p.comparison)).map((p) => p.source),
  };
}

/** What every ICT verdict says while no ICT variant reproduces the labelled overlap (`npm run validate:ict`). */
export const ICT_SETS_NO_OVERLAP =
  "ICT ranks configs but does not set the overlap: checked against labelled questions, its pick is too often more " +
  "than one grid step from theirs (docs/queries.md). Compare configs with it; set the overlap with labelled " +
  "questions (`seamlab proxies --queries FILE` checks a proxy against yours).";
