// Structural damage as rates with Wilson 95% CIs, per splitter, kind and document type.
import type { Chunk, Doc } from "../core/types";
import { classifyDoc, typeBreakdown, type TypedDoc, type TypeBreakdownRow } from "../corpus/doc-types";
import type { DocType } from "../corpus/types";
import { wilsonInterval } from "../stats/proportion";
import {
  DAMAGE_KINDS,
  DAMAGE_KIND_LABELS,
  measureStructureDamage,
  structureLimitUnit,
  type DamageKind,
  type StructureDamage,
} from "../measure/structure-damage";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpus } from "../splitters/registry";
import { pct, points } from "./format";
import { percentNumber, thousands } from "../stats/format";

/** `damaged`: seams damaging a unit no longer than the limit; `inOversize`: seams whose only damage of this kind is inside
 * units longer than it; `value`: damaged / seams. */
export type DamageRateRow = ReturnType<typeof damageRateRows>[number];

/** Rates per kind (and "any"), overall and per type; cuts that only hit units over the limit are in `inOversize`. */
export function damageRateRows(splitter: string, damage: StructureDamage) {
  const row = (type: DocType | "all", kind: DamageKind | "any", damaged: number, inOversize: number, seams: number) => {
    const { low, high } = wilsonInterval(damaged, seams);
    const label = kind === "any" ? "any structural damage" : DAMAGE_KIND_LABELS[kind];
    const value = seams === 0 ? 0 : damaged / seams;
    return { splitter, type, kind, label, seams, damaged, inOversize, value, low, high };
  };
  const byType = Object.entries(damage.byType) as [DocType, NonNullable<StructureDamage["byType"][DocType]>][];
  return [
    ...DAMAGE_KINDS.map((kind) => {
      const k = damage.kinds[kind];
      return row("all", kind, k.damaged - k.inOversize, k.inOversize, damage.seams);
    }),
    row("all", "any", damage.anyDamaged, 0, damage.seams),
    ...byType.flatMap(([type, t]) => [
      ...DAMAGE_KINDS.map((kind) => row(type, kind, t.damaged[kind] - t.inOversize[kind], t.inOversize[kind], t.seams)),
      row(type, "any", t.anyDamaged, 0, t.seams),
    ]),
  ];
}

export type SplitterDamage = ReturnType<typeof structureDamageBySplitter>[number];

/** Structural damage per config; units over 2 x the size (in the config's unit) counted apart. */
export function structureDamageBySplitter(
  docs: readonly Doc[],
  configs: readonly SplitterConfig[],
  { typed = docs.map((d) => classifyDoc(d)) }: { typed?: readonly TypedDoc[] } = {},
) {
  return configs.map((config) => {
    const chunks: Chunk[] = splitCorpus(docs as Doc[], config);
    const damage = measureStructureDamage(docs, chunks, {
      typed,
      limit: 2 * config.size,
      unit: structureLimitUnit(config),
      encoding: config.encoding,
    });
    return { config, chunks: chunks.length, damage, rows: damageRateRows(config.splitter, damage) };
  });
}

/** One wide row per splitter: each kind's rate in %, for a compact table. */
export function damageWideRows(results: readonly SplitterDamage[]): Record<string, string | number>[] {
  return results.map((r) => {
    const rows = r.rows.filter((x) => x.type === "all");
    const rate = (kind: DamageKind | "any") => points(rows.find((y) => y.kind === kind)?.value ?? 0);
    const rates = Object.fromEntries((["any", ...DAMAGE_KINDS] as const).map((kind) => [`${kind} %`, rate(kind)]));
    return { splitter: r.config.splitter, seams: rows[0]?.seams ?? 0, ...rates };
  });
}

/** Rows for a bar chart with CIs: one bar per splitter for one kind. */
export function damageBarRows(results: readonly SplitterDamage[], kind: DamageKind | "any") {
  return results.flatMap((r) => {
    const x = r.rows.find((y) => y.kind === kind && y.type === "all");
    return x ? [{ label: r.config.splitter, value: x.value, low: x.low, high: x.high, series: r.config.splitter }] : [];
  });
}

/** The breakdown by type of a corpus, shares as fractions, for a table. */
export function typeBreakdownTable(typed: readonly TypedDoc[]): Record<string, string | number>[] {
  return typeBreakdown(typed).map((r: TypeBreakdownRow) => ({
    type: r.type,
    documents: r.docs,
    sections: r.sections,
    characters: r.chars,
    "share of characters %": Math.round(10 * r.charsPct) / 10,
  }));
}

/** One row per splitter, one column per document type: the share of that type's seams with any structural damage. */
export function damageByTypeTable(results: readonly SplitterDamage[]): Record<string, string | number>[] {
  const types = [...new Set(results.flatMap((r) => r.rows.filter((x) => x.type !== "all").map((x) => x.type)))];
  return results.map((r) => {
    const cell = (type: string) => {
      const x = r.rows.find((y) => y.type === type && y.kind === "any");
      return x ? `${percentNumber(x.value)} [${percentNumber(x.low)}, ${percentNumber(x.high)}]` : "-";
    };
    return { splitter: r.config.splitter, ...Object.fromEntries(types.map((type) => [`${type} %`, cell(type)])) };
  });
}

export function configsFor(splitters: readonly string[], size: number, overlap: number): SplitterConfig[] {
  return splitters.map((splitter) => ({ splitter, size, overlap }));
}

const anyRate = (r: SplitterDamage) => (r.damage.seams ? r.damage.anyDamaged / r.damage.seams : 0);

/** One sentence for notebook 02: each splitter's share of seams that cut a structural unit, or why there are none. */
export function structureFinding(results: readonly SplitterDamage[]): string {
  const units = Object.values(results[0]?.damage.kinds ?? {}).reduce((sum, kind) => sum + kind.units, 0);
  if (units === 0) {
    return (
      "This corpus has no code blocks, tables, lists, headings or turns: " +
      "structural damage is zero for every splitter here."
    );
  }
  const shares = results.map((r) => `\`${r.config.splitter}\` ${pct(anyRate(r))}`);
  return `${shares.join(", ")} of seams cut a structural unit (${thousands(units)} units in the corpus).`;
}

/** One sentence for notebook 07: the splitter that damages structure most, and the structure splitter. */
export function worstAndStructureFinding(results: readonly SplitterDamage[]): string {
  const worst = [...results].sort((a, b) => anyRate(b) - anyRate(a))[0];
  if (!worst) return "No splitter was measured.";
  const mine = results.find((r) => r.config.splitter === "structure");
  const codeCuts = mine ? mine.damage.kinds["code-block"].damaged - mine.damage.kinds["code-block"].inOversize : 0;
  return (
    `\`${worst.config.splitter}\` damages structure at **${pct(anyRate(worst))}** of its seams` +
    (mine
      ? `; \`structure\` at **${pct(anyRate(mine))}** (code blocks under the hard limit cut: ${thousands(codeCuts)}).`
      : ".")
  );
}
