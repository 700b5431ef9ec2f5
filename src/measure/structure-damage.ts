// A seam (neighbouring chunks a, b, by start) damages a unit a reader needs whole (`[s, e)`, trimmed) when a's end or
// b's start falls strictly inside it and neither chunk holds it whole; a table cut at a row boundary only when b lacks
// the header row. Cuts inside units over `limit` (they fit no chunk) count apart (`inOversize`). The limit is in the
// chunks' unit: 2 x 256 "chars" would call 600-character units unsplittable in token chunks of about 1,050 characters.
import type { Chunk, Doc } from "../core/types";
import { partitionPoint } from "../core/sorted";
import { classifyDoc, typeAt, type TypedDoc } from "../corpus/doc-types";
import { DOC_TYPES, type DocType } from "../corpus/types";
import type { SplitterConfig, Unit } from "../splitters/config";
import { unitOf } from "../splitters/registry";
import { lengthFunctionFor } from "../text/tokens";
import { codeUnits, isTsJsPath } from "../text/code-units";
import { trimSpan } from "../text/words";
import { chunksByDoc, spansByStart } from "./chunks-by-doc";

export const DAMAGE_KINDS = ["code-block", "table", "list-item", "heading", "faq", "turn", "function"] as const;
export type DamageKind = (typeof DAMAGE_KINDS)[number];

export const DAMAGE_KIND_LABELS: Record<DamageKind, string> = {
  "code-block": "cut inside a fenced code block",
  table: "cut inside a table (mid-row, or rows cut off from their header)",
  "list-item": "cut inside a list item",
  heading: "heading stranded from its first content",
  faq: "FAQ question cut from its answer",
  turn: "cut inside a speaker turn",
  function: "cut inside a function or class (TS/JS source)",
};

export interface StructuralUnit {
  kind: DamageKind;
  start: number;
  end: number;
  /** tables: the header row(s) `[start, headerEnd)` */
  headerEnd?: number;
}

export interface KindDamage {
  /** seams damaging a unit of this kind, and of those the seams whose damaged units are all over the limit */
  damaged: number;
  inOversize: number;
  units: number;
  unitsOverLimit: number;
  unitsCut: number;
}

export interface TypeDamage {
  seams: number;
  damaged: Record<DamageKind, number>;
  inOversize: Record<DamageKind, number>;
  anyDamaged: number;
}

export interface StructureDamage {
  seams: number;
  limit: number;
  /** absent (chars) in results cached before it was recorded */
  limitUnit?: Unit;
  kinds: Record<DamageKind, KindDamage>;
  /** seams damaging a unit (of any kind) within the limit */
  anyDamaged: number;
  byType: Partial<Record<DocType, TypeDamage>>;
}

export function structuralUnits(doc: Doc, typed: TypedDoc): StructuralUnit[] {
  const text = doc.text;
  const units: StructuralUnit[] = [];
  const push = (kind: DamageKind, s: number, e: number, headerEnd?: number) => {
    const [start, end] = trimSpan(text, s, e);
    if (end > start) units.push(headerEnd === undefined ? { kind, start, end } : { kind, start, end, headerEnd });
  };
  if (typed.type === "code" && typed.sections.length === 1 && typed.sections[0].section.blocks.length === 0) {
    if (isTsJsPath(doc.source ?? doc.id)) {
      for (const unit of codeUnits(text, doc.source ?? doc.id)) {
        if (unit.isFunctionOrClass) push("function", unit.codeStart, unit.codeEnd);
      }
    }
    return units;
  }
  for (const typedSection of typed.sections) {
    const section = typedSection.section;
    const blocks = section.blocks;
    const heading = section.heading;
    const content = blocks.find((b) => b.kind !== "heading");
    if (heading && content) {
      const lineEnd = text.indexOf("\n", content.start);
      push("heading", heading.start, lineEnd < 0 || lineEnd > content.end ? content.end : lineEnd);
      if (heading.text.trim().endsWith("?")) push("faq", heading.start, content.end);
    }
    for (const block of blocks) {
      if (block.kind === "code") push("code-block", block.start, block.end);
      else if (block.kind === "table") push("table", block.start, block.end, block.headerEnd);
      else if (block.kind === "list-item") push("list-item", block.start, block.end);
      else if (block.kind === "faq-pair") push("faq", block.start, block.end);
      else if (block.kind === "turn") push("turn", block.start, block.end);
    }
  }
  return units;
}

function emptyKinds(): Record<DamageKind, number> {
  return Object.fromEntries(DAMAGE_KINDS.map((k) => [k, 0])) as Record<DamageKind, number>;
}

/** The chunks' unit, except that the structure splitter's `--hard-limit` is in characters. */
export function structureLimitUnit(config: SplitterConfig): Unit {
  return typeof config.extra?.hardLimit === "number" ? "chars" : unitOf(config);
}

function overLimitTest(text: string, limit: number, unit: Unit, encoding?: string): (u: StructuralUnit) => boolean {
  if (unit === "chars") return (u) => u.end - u.start > limit;
  const tokens = lengthFunctionFor("tokens", encoding);
  // a UTF-16 code unit is at most 3 UTF-8 bytes, so at most 3 tokens: count only units that could be over
  return (u) => 3 * (u.end - u.start) > limit && tokens(text.slice(u.start, u.end)) > limit;
}

/** `limit`: default Infinity, in `unit` (default chars). */
export function measureStructureDamage(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  options: { typed?: readonly TypedDoc[]; limit?: number; unit?: Unit; encoding?: string } = {},
): StructureDamage {
  const limit = options.limit ?? Infinity;
  const limitUnit = options.unit ?? "chars";
  const typedById = new Map((options.typed ?? docs.map((d) => classifyDoc(d))).map((t) => [t.doc, t]));
  const kinds = Object.fromEntries(
    DAMAGE_KINDS.map((k) => [k, { damaged: 0, inOversize: 0, units: 0, unitsOverLimit: 0, unitsCut: 0 }]),
  ) as Record<DamageKind, KindDamage>;
  const byType: Partial<Record<DocType, TypeDamage>> = {};
  let seams = 0;
  let anyDamaged = 0;
  const byDoc = chunksByDoc(docs, chunks);
  for (const doc of docs) {
    const typed = typedById.get(doc.id) ?? classifyDoc(doc);
    const units = structuralUnits(doc, typed);
    const byStart = (x: StructuralUnit, y: StructuralUnit) => x.start - y.start || x.end - y.end;
    const perKind = new Map(DAMAGE_KINDS.map((k) => [k, units.filter((u) => u.kind === k).sort(byStart)]));
    const isOver = overLimitTest(doc.text, limit, limitUnit, options.encoding);
    const over = new Set<StructuralUnit>(units.filter(isOver));
    const cut = new Map<DamageKind, Set<number>>(DAMAGE_KINDS.map((k) => [k, new Set<number>()]));
    for (const [kind, list] of perKind) {
      kinds[kind].units += list.length;
      kinds[kind].unitsOverLimit += list.filter((u) => over.has(u)).length;
    }
    const sorted = spansByStart(byDoc.get(doc.id) ?? []);
    for (let i = 1; i < sorted.length; i++) {
      const a = sorted[i - 1];
      const b = sorted[i];
      seams++;
      const type = typeAt(typed, Math.min(b.start, doc.text.length - 1));
      const row = (byType[type] ??= { seams: 0, damaged: emptyKinds(), inOversize: emptyKinds(), anyDamaged: 0 });
      row.seams++;
      let seamDamaged = false;
      for (const kind of DAMAGE_KINDS) {
        const list = perKind.get(kind)!;
        if (list.length === 0) continue;
        let damagedSmall = false;
        let damagedLarge = false;
        for (const p of [a.end, b.start]) {
          // units of one kind do not nest: the last one starting before p is the candidate (a few more for safety)
          const last = partitionPoint(list.length, (i) => list[i].start < p) - 1;
          for (let u = last; u >= 0 && u >= last - 2; u--) {
            const unit = list[u];
            if (!(unit.start < p && p < unit.end)) continue;
            if (a.start <= unit.start && unit.end <= a.end) continue;
            if (b.start <= unit.start && unit.end <= b.end) continue;
            if (kind === "table" && cutBetweenRows(doc.text, a, b) && carriesHeader(doc.text, unit, b)) continue;
            cut.get(kind)!.add(u);
            if (over.has(unit)) damagedLarge = true;
            else damagedSmall = true;
          }
        }
        if (damagedSmall || damagedLarge) {
          kinds[kind].damaged++;
          row.damaged[kind]++;
          if (!damagedSmall) {
            kinds[kind].inOversize++;
            row.inOversize[kind]++;
          }
        }
        if (damagedSmall) seamDamaged = true;
      }
      if (seamDamaged) {
        anyDamaged++;
        row.anyDamaged++;
      }
    }
    for (const kind of DAMAGE_KINDS) kinds[kind].unitsCut += cut.get(kind)!.size;
  }
  const ordered: Partial<Record<DocType, TypeDamage>> = {};
  for (const type of DOC_TYPES) if (byType[type]) ordered[type] = byType[type];
  return { seams, limit, limitUnit, kinds, anyDamaged, byType: ordered };
}

function cutBetweenRows(text: string, a: Chunk, b: Chunk): boolean {
  let i = a.end;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  if (i < text.length && text[i] !== "\n") return false;
  let j = b.start - 1;
  while (j >= 0 && (text[j] === " " || text[j] === "\t")) j--;
  return j < 0 || text[j] === "\n";
}

/** b's text opens with the table's header rows, as the `structure` splitter's continuation pieces do. */
function carriesHeader(text: string, unit: StructuralUnit, b: Chunk): boolean {
  if (unit.headerEnd === undefined) return false;
  if (b.start <= unit.start) return true;
  const header = text.slice(unit.start, unit.headerEnd).trim();
  return header !== "" && b.text.trimStart().startsWith(header);
}
