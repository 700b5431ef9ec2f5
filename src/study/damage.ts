// Seam damage per splitter and overlap (notebook 02): the share of sentence pairs across a paragraph break that some
// chunk keeps together, on a seeded document sample, with 95% CIs from a cluster bootstrap over documents; and the
// sentences the notebook writes under its charts.
import type { Chunk, Doc } from "../core/types";
import { seamDamageByDoc, straddlingPairs } from "../measure/pairs";
import { splitCorpus } from "../splitters/registry";
import { clusterRatioInterval } from "../stats/cluster";
import { thousands } from "../stats/format";
import { pct, pointsInterval, signedInterval, signedPointsText } from "./format";
import { documentShareInterval, sampleForShares, type SampleOptions } from "./sampling";

/** `value`: kept / pairs; `gain`: that minus the splitter's at its smallest overlap, with a paired 95% CI. */
export type DamageRow = ReturnType<typeof seamDamageRows>[number];

function keptShares(docs: Doc[], configs: readonly { splitter: string; size: number; overlap: number }[]) {
  const pairs = straddlingPairs(docs);
  return configs.map((config) => {
    const byDoc = seamDamageByDoc(docs, splitCorpus(docs, config), pairs);
    return { numerators: byDoc.kept, denominators: byDoc.pairs };
  });
}

/** Every splitter at every overlap below `size`, on one document sample (auto: sized for CIs of about ±1 point). */
export function seamDamageRows(
  docs: readonly Doc[],
  splitters: readonly string[],
  size: number,
  overlaps: readonly number[],
  options: SampleOptions = {},
) {
  const configs = splitters.flatMap((splitter) =>
    overlaps.filter((overlap) => overlap < size).map((overlap) => ({ splitter, size, overlap })),
  );
  const sample = sampleForShares(docs, options, (trial) => keptShares(trial, configs));
  const pairs = straddlingPairs(sample.docs);
  const measured = configs.map((config) => {
    const chunks: Chunk[] = splitCorpus(sample.docs, config);
    return { config, chunks: chunks.length, byDoc: seamDamageByDoc(sample.docs, chunks, pairs) };
  });
  return measured.map(({ config: { splitter, overlap }, chunks, byDoc }) => {
    const kept = byDoc.kept.reduce((s, k) => s + k, 0);
    const total = byDoc.pairs.reduce((s, k) => s + k, 0);
    const ci = documentShareInterval(
      { numerators: byDoc.kept, denominators: byDoc.pairs },
      sample.strata,
      options.seed,
    );
    const first = measured.find((m) => m.config.splitter === splitter)!.byDoc;
    const gain =
      first === byDoc || total === 0
        ? { value: 0, low: 0, high: 0 }
        : clusterRatioInterval(
            byDoc.kept.map((k, i) => k - first.kept[i]),
            byDoc.pairs,
            sample.strata,
            { seed: options.seed },
          );
    return {
      label: `${splitter} ${size}/${overlap}`,
      splitter,
      overlap,
      pairs: total,
      kept,
      value: total === 0 ? 0 : kept / total,
      low: ci.low,
      high: ci.high,
      chunks,
      docs: sample.docs.length,
      sample: sample.description,
      gain: gain.value,
      gainLow: gain.low,
      gainHigh: gain.high,
    };
  });
}

/** The same rows shaped for `lineWithBand` (x = overlap, one series per splitter). */
export function damageLineRows(rows: readonly DamageRow[]) {
  return rows.map((r) => ({ x: r.overlap, y: r.value, low: r.low, high: r.high, series: r.splitter }));
}

/** Per splitter: kept share at the smallest and largest overlap measured, and the gain between them. */
export function damageGainRows(rows: readonly DamageRow[]): Record<string, string | number>[] {
  const splitters = [...new Set(rows.map((r) => r.splitter))];
  return splitters.map((splitter) => {
    const list = rows.filter((r) => r.splitter === splitter);
    const first = list[0];
    const last = list[list.length - 1];
    return {
      splitter,
      [`kept at ${first.overlap} (%)`]: 100 * first.value,
      [`kept at ${last.overlap} (%)`]: 100 * last.value,
      "gain (points)": 100 * last.gain,
      "gain 95% CI (paired)": pointsInterval(last.gainLow, last.gainHigh),
      [`chunks at ${first.overlap}`]: first.chunks,
      [`chunks at ${last.overlap}`]: last.chunks,
    };
  });
}

/** The corpus and how many sentence pairs straddle a paragraph break in it. */
export function pairsFinding(damage: readonly DamageRow[], description: string): string {
  const where = damage[0] ? ` in ${damage[0].sample}` : "";
  return `Corpus: ${description}; ${thousands(damage[0]?.pairs ?? 0)} sentence pairs straddle a paragraph break${where}.`;
}

/** The splitters that keep the most and the fewest pairs together at one overlap, with their CIs. */
export function keptFinding(atOverlap: readonly DamageRow[], overlap: number): string {
  const ranked = [...atOverlap].sort((a, b) => b.value - a.value);
  const best = ranked[0];
  const worst = ranked[ranked.length - 1];
  return (
    `At overlap ${overlap}, \`${best.splitter}\` keeps **${pct(best.value)}** of the pairs together ` +
    `(95% CI ${pct(best.low)}–${pct(best.high)}); \`${worst.splitter}\` keeps **${pct(worst.value)}** ` +
    `(${pct(worst.low)}–${pct(worst.high)}). The rest are split across two chunks.`
  );
}

/** How raising the overlap from the smallest to the largest changes each splitter's kept share (paired CIs). */
export function gainFinding(
  damage: readonly DamageRow[],
  splitters: readonly string[],
  overlaps: readonly number[],
): string {
  const lo = Math.min(...overlaps);
  const hi = Math.max(...overlaps);
  const gain = (splitter: string) => {
    const rows = damage.filter((r) => r.splitter === splitter);
    const last = rows[rows.length - 1];
    if (!last) return `no rows for \`${splitter}\``;
    return `**${signedPointsText(last.gain)} points** ${signedInterval(last.gainLow, last.gainHigh)} for \`${splitter}\``;
  };
  return (
    `Raising the overlap from ${lo} to ${hi} characters changes the kept share by ` +
    splitters.map(gain).join(", ") +
    " (paired 95% CIs: a cluster bootstrap over documents of each document's change)."
  );
}
