// `seamlab proxies` and the report's proxy section: the same overlap sweep with a user's labelled questions and with
// each proxy the corpus can give, and whether each proxy leads to the overlap the labelled questions lead to.
import { SeamlabError } from "../core/errors";
import type { Doc } from "../core/types";
import { loadCorpus } from "../corpus/load";
import { runOverlapSweep, type SweepCurve } from "../experiment/sweep";
import { compareProxy, MIN_TAU, TRUST_RULE, trustedProxy, type ProxyComparison } from "../experiment/proxies";
import { buildQuerySet, isSquadSpec, type QuerySet } from "../retrieval/query-source";
import { thousands } from "../stats/format";
import { twoDecimals } from "./format";
import type { SplitterSweepSpec } from "./sweep";

/** `ictCount`: ICT queries to sample (default 500). */
export type ProxyCheckSpec = SplitterSweepSpec & { headingLevels?: readonly number[]; ictCount?: number };

export type ProxyCheck = Awaited<ReturnType<typeof runProxyCheck>>;

const PROXIES = ["headers", "ict"] as const;

async function sweepCurves(set: QuerySet, spec: ProxyCheckSpec): Promise<SweepCurve[]> {
  const result = await runOverlapSweep(
    { docs: set.docs, queries: set.queries },
    { splitter: spec.splitter, size: spec.size, overlaps: spec.overlaps, ks: [spec.k] },
    { workers: 0, quiet: true, metric: "hitRate", margin: spec.margin },
  );
  return result.curves;
}

/** Sweeps the labelled questions and each proxy built from the same documents (a SQuAD file's own), and compares. */
export async function runProxyCheck(corpus: string, labelledFile: string, spec: ProxyCheckSpec) {
  const docs: Doc[] = isSquadSpec(labelledFile) ? [] : loadCorpus(corpus).docs;
  const labelled = buildQuerySet(labelledFile, docs, { skipMalformed: true, corpusName: corpus });
  const sets: { source: (typeof PROXIES)[number]; set: QuerySet }[] = [];
  const missing: { source: string; reason: string }[] = [];
  for (const source of PROXIES) {
    const options = { corpusName: corpus, headers: { headingLevels: spec.headingLevels }, ict: { n: spec.ictCount } };
    try {
      sets.push({ source, set: buildQuerySet(source, labelled.docs, options) });
    } catch (error) {
      if (!(error instanceof SeamlabError)) throw error;
      missing.push({ source, reason: error.message });
    }
  }
  const labelledCurves = await sweepCurves(labelled, spec);
  const comparisons: ProxyComparison[] = [];
  for (const { set } of sets) comparisons.push(compareProxy(labelledCurves, await sweepCurves(set, spec)));
  const proxies = sets.map(({ source, set }, i) => ({
    source,
    label: set.label,
    queries: set.queries.length,
    comparison: comparisons[i],
  }));
  return {
    corpus,
    spec,
    labelled: { label: labelled.label, queries: labelled.queries.length, curves: labelledCurves },
    proxies,
    missing,
    trust: trustedProxy(proxies),
  };
}

/** What the table shows, for its caption. */
export function proxyCaption(check: ProxyCheck): string {
  const s = check.spec;
  return (
    `The same overlap sweep (${s.splitter} at ${s.size} chars, overlaps ${s.overlaps.join(", ")}, BM25, ` +
    `hit rate@${s.k}) with ${check.labelled.label} and with each proxy; Kendall tau-b of the configs' hit rates, ` +
    "paired agreement = share of overlaps with the same paired status against their source's best (shown within " +
    "the margin / unclear / shown worse); labelled verdict's set = overlaps not shown worse than the labelled best"
  );
}

/** The report's proxy section when a labelled file is given: the check, its table rows, caption and finding. */
export async function runStudyProxies(corpus: string, labelledFile: string, spec: ProxyCheckSpec) {
  const check = await runProxyCheck(corpus, labelledFile, spec);
  return { check, rows: proxyRows(check), caption: proxyCaption(check), finding: proxyFinding(check) };
}

/** One row per proxy (and per proxy the corpus cannot give), for the CLI's table and a notebook. */
export function proxyRows(check: ProxyCheck): Record<string, string | number>[] {
  const rows: Record<string, string | number>[] = check.proxies.map((p) => {
    const c = p.comparison;
    const curve = c.curves[0];
    return {
      proxy: p.source,
      queries: p.queries,
      "Kendall tau": twoDecimals(c.tau),
      "paired agreement": `${Math.round(100 * c.statusAgreement)}% of ${c.configs} configs`,
      "pick: labelled → proxy": c.curves.map((x) => `${x.labelledPick} → ${x.proxyPick}`).join("; "),
      "labelled verdict's set": c.curves.map((x) => x.labelledSet.join(", ")).join("; "),
      "pick inside the set":
        c.curves.length > 1
          ? `${c.inSet}/${c.curves.length}`
          : curve.labelledSet.length === curve.overlaps.length
            ? "yes (the set holds every overlap)"
            : curve.inSet
              ? "yes"
              : "no",
      trust:
        p.source === check.trust.trusted ? "trusted" : check.trust.ranksOnly.includes(p.source) ? "ranks only" : "no",
    };
  });
  for (const m of check.missing)
    rows.push({
      proxy: m.source,
      queries: 0,
      "Kendall tau": "n/a",
      "paired agreement": "n/a",
      "pick: labelled → proxy": "n/a",
      "labelled verdict's set": "n/a",
      "pick inside the set": "n/a",
      trust: `not available: ${m.reason}`,
    });
  return rows;
}

/** The finding in two or three sentences, numbers included, ending with the rule it applied. */
export function proxyFinding(check: ProxyCheck): string {
  const curve = check.labelled.curves[0];
  const what = `${check.spec.splitter} at ${check.spec.size} chars, overlaps ${check.spec.overlaps.join(", ")}`;
  const parts = check.proxies.map((p) => {
    const c = p.comparison.curves[0];
    return (
      `${p.source} (${thousands(p.queries)} queries) picks overlap ${c.proxyPick}, ` +
      `${c.inSet ? "inside" : "outside"} that set, Kendall tau ${twoDecimals(p.comparison.tau)}, ` +
      `paired agreement ${Math.round(100 * p.comparison.statusAgreement)}%`
    );
  });
  const set = curve.points.filter((_, i) => curve.decision.configs[i].status !== "worse").map((p) => p.x);
  const flat = curve.points.every((p) => p.y === curve.points[0].y);
  const labelled =
    `With ${check.labelled.label} (${what}), the labelled verdict is ${curve.decision.verdict} at overlap ` +
    `${curve.points[curve.decision.choice].x}, and it does not rule out ${set.join(", ")}` +
    (flat
      ? ": every overlap hits the same share of the labelled questions, so they cannot tell overlaps apart and " +
        "no proxy can be checked on this grid."
      : set.length === curve.points.length
        ? ": it rules no overlap out, so a proxy's pick lying inside the set says little; more labelled " +
          "questions (or a coarser grid) would make this check sharper."
        : ".");
  const trust = check.trust.trusted
    ? `Trust ${check.trust.trusted} on this corpus: its pick lies in the labelled verdict's set and it ranks ` +
      `configs like the labelled questions (tau >= ${MIN_TAU}).`
    : check.trust.ranksOnly.length > 0
      ? `No proxy sets the overlap here: ${check.trust.ranksOnly.join(" and ")} ` +
        `${check.trust.ranksOnly.length > 1 ? "rank" : "ranks"} configs like the labelled questions but ` +
        "does not set the overlap; set it with the labelled questions."
      : check.proxies.length > 0 && check.proxies.every((p) => p.comparison.informative === 0)
        ? "No proxy can be trusted to set the overlap from this check: the labelled verdict rules no overlap out, " +
          "so no pick can be tested."
        : "No proxy agrees with the labelled questions here: set the overlap with them.";
  const missing = check.missing.length > 0 ? ` Not available: ${check.missing.map((m) => m.source).join(", ")}.` : "";
  return (
    `${labelled} ${parts.length > 0 ? parts.join("; ") + "." : "No proxy could be built."} ${trust}${missing} ` +
    `Rule: ${TRUST_RULE}`
  );
}
