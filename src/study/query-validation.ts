// Does a query proxy (ICT, headers) rank splitter configs the way labelled questions do? Pure comparisons of sweeps
// already run on the same corpus (`scripts/validate-ict.ts` runs them).
import type { SweepResult } from "../experiment/sweep";
import { kendallTauB } from "../stats/kendall";
import { median } from "../stats/quantiles";
import { compareProxy, type ProxyComparison } from "../experiment/proxies";
import { recommendedOverlap } from "./sweep";
import { markdownTable, twoDecimals } from "./format";

export interface SourceSweeps {
  /** "labelled", "ict", "ict-kept", "headers" */
  source: string;
  /** "472 labelled queries (questions_df.csv)" */
  label: string;
  queries: number;
  /** one result per size swept, all with the same splitters and overlaps */
  results: SweepResult[];
}

/** `tau`: Kendall tau-b of the configs' hit rates, proxy against truth; `bestTruth`, `bestProxy`: the best config by
 * each (ties: the first in grid order); `levelGap`: mean hit rate over configs, proxy minus truth, in points. */
export type ProxyAgreement = Omit<ReturnType<typeof compareWithTruth>, "check"> & { check?: ProxyComparison };

export interface CorpusValidation {
  corpus: string;
  kind: string;
  documents: number;
  characters: number;
  truth: { label: string; queries: number };
  proxies: ProxyAgreement[];
  unavailable: { source: string; reason: string }[];
}

type ConfigScore = ReturnType<typeof scores>[number];

function scores(sweeps: SourceSweeps) {
  return sweeps.results.flatMap((r) =>
    r.rows.map((row) => {
      const s = row.config.splitter;
      return { id: `${s.splitter} ${s.size}/${s.overlap}`, hitRate: row.retrieval.hitRate };
    }),
  );
}

const curvesOf = (sweeps: SourceSweeps) => sweeps.results.flatMap((r) => r.curves);

function recommendations(sweeps: SourceSweeps): Map<string, number> {
  return new Map(curvesOf(sweeps).map((curve) => [`${curve.splitter}@${curve.size}`, recommendedOverlap(curve)]));
}

const bestOf = (list: ConfigScore[]) => list.reduce((a, b) => (b.hitRate > a.hitRate ? b : a)).id;

export function compareWithTruth(truth: SourceSweeps, proxy: SourceSweeps) {
  const t = scores(truth);
  const byId = new Map(scores(proxy).map((s) => [s.id, s.hitRate]));
  const paired = t.filter((s) => byId.has(s.id));
  const p = paired.map((s) => ({ id: s.id, hitRate: byId.get(s.id)! }));
  const rates = (list: ConfigScore[]) => list.map((s) => s.hitRate);
  const tau = kendallTauB(rates(paired), rates(p));
  const truthRec = recommendations(truth);
  const proxyRec = recommendations(proxy);
  const recs = [...truthRec]
    .filter(([curve]) => proxyRec.has(curve))
    .map(([curve, truth]) => ({ curve, truth, proxy: proxyRec.get(curve)!, agree: truth === proxyRec.get(curve) }));
  const mean = (list: ConfigScore[]) => list.reduce((s, x) => s + x.hitRate, 0) / Math.max(1, list.length);
  const levelGap = 100 * (mean(p) - mean(paired));
  const misleads: string[] = [];
  for (const r of recs)
    if (!r.agree)
      misleads.push(
        `${r.curve}: recommends overlap ${r.proxy} where labelled questions recommend ${r.truth} ` +
          `(${r.proxy > r.truth ? "more overlap than needed" : "less overlap than labelled questions want"})`,
      );
  if (!(tau >= 0.5))
    misleads.push(`ranks configs ${Number.isNaN(tau) ? "without any order" : "differently"} (tau ${twoDecimals(tau)})`);
  const bestTruth = bestOf(paired);
  const bestProxy = bestOf(p);
  if (bestTruth.split(" ")[0] !== bestProxy.split(" ")[0])
    misleads.push(
      `picks splitter ${bestProxy.split(" ")[0]} as best where labelled questions pick ${bestTruth.split(" ")[0]}`,
    );
  return {
    source: proxy.source,
    label: proxy.label,
    queries: proxy.queries,
    tau,
    configs: paired.length,
    recommendations: recs,
    bestTruth,
    bestProxy,
    levelGap,
    misleads,
    check: compareProxy(curvesOf(truth), curvesOf(proxy)),
  };
}

const shortCurve = (curve: string) => curve.replace("recursive@", "r").replace("window@", "w");

/** One row per corpus and proxy, for the table in docs/queries.md and the notebook. */
export function validationRows(results: readonly CorpusValidation[]): Record<string, string | number>[] {
  const curves = results.flatMap((c) => c.proxies).find((p) => p.recommendations.length > 0)?.recommendations ?? [];
  const overlapColumn = `recommended overlaps ${curves.map((r) => shortCurve(r.curve)).join(" ")}: labelled → proxy`;
  const na = "n/a";
  return results.flatMap((c) =>
    [...c.proxies, ...c.unavailable].map((p) => {
      const measured = "tau" in p ? p : undefined;
      const check = measured?.check;
      const recs = measured?.recommendations ?? [];
      return {
        corpus: c.corpus,
        proxy: p.source,
        "queries: labelled / proxy": `${c.truth.queries} / ${measured?.queries ?? 0}`,
        "Kendall tau": measured ? twoDecimals(measured.tau) : na,
        "same overlap": measured ? `${recs.filter((r) => r.agree).length}/${recs.length}` : na,
        "same or adjacent": check ? `${check.nearPick}/${check.curves.length}` : na,
        "inside labelled set": check ? `${check.inSet}/${check.curves.length}` : na,
        "paired agreement": check ? `${Math.round(100 * check.statusAgreement)}%` : na,
        [overlapColumn]:
          "reason" in p ? p.reason : `${recs.map((r) => r.truth).join(" ")} → ${recs.map((r) => r.proxy).join(" ")}`,
        "hit-rate gap (pts)": measured ? Number(measured.levelGap.toFixed(1)) : na,
      };
    }),
  );
}

/** The rows as a markdown table (docs/queries.md, script output). */
export function validationMarkdown(results: readonly CorpusValidation[]): string {
  return results.length === 0 ? "(no corpora measured)" : markdownTable(validationRows(results));
}

const isGenerated = (c: CorpusValidation) => c.kind.startsWith("generated");

/** One row per proxy over the labelled corpora (the generated ones apart), for the variant table in docs/queries.md. */
export function variantRows(results: readonly CorpusValidation[]): Record<string, string | number>[] {
  const rows: Record<string, string | number>[] = [];
  const sources = [...new Set(results.flatMap((c) => c.proxies.map((p) => p.source)))];
  for (const generated of [false, true]) {
    const corpora = results.filter((c) => isGenerated(c) === generated);
    for (const source of sources) {
      const checks = corpora.flatMap((c) => c.proxies.filter((p) => p.source === source && p.check));
      if (checks.length === 0) continue;
      const curves = checks.flatMap((p) => p.check!.curves);
      const informative = curves.filter((c) => c.labelledSet.length < c.overlaps.length);
      const count = (f: (p: ProxyAgreement) => number) => checks.reduce((s, p) => s + f(p), 0);
      const taus = checks.map((p) => p.tau).filter((t) => typeof t === "number" && !Number.isNaN(t));
      const configs = count((p) => p.check!.configs);
      const agreeing = count((p) => Math.round(p.check!.statusAgreement * p.check!.configs));
      rows.push({
        corpora: generated ? corpora.map((c) => c.corpus).join(", ") : `${checks.length} labelled corpora`,
        proxy: source,
        "same or adjacent pick": `${count((p) => p.check!.nearPick)}/${curves.length}`,
        "same pick": `${count((p) => p.check!.samePick)}/${curves.length}`,
        "pick inside labelled set": `${count((p) => p.check!.inSet)}/${curves.length}`,
        "inside, where the set rules an overlap out": `${informative.filter((c) => c.inSet).length}/${informative.length}`,
        "median Kendall tau": taus.length > 0 ? twoDecimals(median(taus)) : "n/a",
        "paired agreement": `${Math.round((100 * agreeing) / Math.max(1, configs))}%`,
      });
    }
  }
  return rows;
}
