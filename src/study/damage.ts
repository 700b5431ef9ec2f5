// Seam damage per splitter and overlap: the share of sentence pairs across a paragraph break that some
// chunk keeps together, with Wilson 95% CIs (the rows behind notebook 02).
import type { Chunk, Doc } from "../core/types";
import { wilsonInterval } from "../stats/proportion";
import { measureSeamDamage, straddlingPairs } from "../measure/pairs";
import { splitCorpus } from "../splitters/registry";

export type DamageRow = {
  /** e.g. "langchain 1000/200" */
  label: string;
  splitter: string;
  overlap: number;
  pairs: number;
  kept: number;
  /** kept / pairs, a fraction */
  value: number;
  low: number;
  high: number;
  chunks: number;
};

/** Every splitter at every overlap (overlaps >= size are skipped), in splitter-then-overlap order. */
export function seamDamageRows(
  docs: readonly Doc[],
  splitters: readonly string[],
  size: number,
  overlaps: readonly number[],
): DamageRow[] {
  const pairs = straddlingPairs(docs);
  const rows: DamageRow[] = [];
  for (const splitter of splitters) {
    for (const overlap of overlaps) {
      if (overlap >= size) continue;
      const chunks: Chunk[] = splitCorpus(docs as Doc[], { splitter, size, overlap });
      const damage = measureSeamDamage(docs, chunks, pairs);
      const ci = wilsonInterval(damage.kept, damage.pairs);
      rows.push({
        label: `${splitter} ${size}/${overlap}`,
        splitter,
        overlap,
        pairs: damage.pairs,
        kept: damage.kept,
        value: damage.pairs === 0 ? 0 : damage.kept / damage.pairs,
        low: ci.low,
        high: ci.high,
        chunks: chunks.length,
      });
    }
  }
  return rows;
}

/** The same rows shaped for `lineWithBand` (x = overlap, one series per splitter). */
export function damageLineRows(
  rows: readonly DamageRow[],
): { x: number; y: number; low: number; high: number; series: string }[] {
  return rows.map((r) => ({ x: r.overlap, y: r.value, low: r.low, high: r.high, series: r.splitter }));
}

/** Per splitter: kept share at the smallest and largest overlap measured, and the gain between them. */
export function damageGainRows(rows: readonly DamageRow[]): Record<string, string | number>[] {
  const bySplitter = new Map<string, DamageRow[]>();
  for (const r of rows) bySplitter.set(r.splitter, [...(bySplitter.get(r.splitter) ?? []), r]);
  return [...bySplitter.entries()].map(([splitter, list]) => {
    const first = list[0];
    const last = list[list.length - 1];
    return {
      splitter,
      [`kept at ${first.overlap} (%)`]: 100 * first.value,
      [`kept at ${last.overlap} (%)`]: 100 * last.value,
      "gain (points)": 100 * (last.value - first.value),
      [`chunks at ${first.overlap}`]: first.chunks,
      [`chunks at ${last.overlap}`]: last.chunks,
    };
  });
}
