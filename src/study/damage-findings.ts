// The sentences notebook 02 writes under its charts.
import { pct, signedInterval, signedPointsText } from "./format";
import { thousands } from "../stats/format";
import type { DamageRow } from "./damage";

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
