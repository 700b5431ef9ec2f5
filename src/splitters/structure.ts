/**
 * `structure`: a splitter that respects document structure first and adds overlap only inside long prose.
 *
 * 1. Each document is classified (`corpus/doc-types`): markdown sections get a type; source files and CSVs are one
 *    `code` / `table` unit list. Each type has its own size and overlap (`extra.perType`, default: `size` for all,
 *    `overlap` for prose and 0 for the rest).
 * 2. Markdown sections first: consecutive whole sections of one type share a chunk while they fit its size; a
 *    section never shares a chunk with a section of another type.
 * 3. A section too long for one chunk is cut into units: its blocks (a heading stays with the block after it).
 *    Fenced code, tables, FAQ pairs and speaker turns are atomic: kept whole, alone in a chunk when longer than the
 *    size, up to the hard limit (`extra.hardLimit`, default 2 x size). Past the hard limit they are split at line
 *    boundaries (tables at row boundaries, the header row carried into each piece). Paragraphs and list items
 *    longer than the size split at sentences, then words, then characters.
 * 4. Overlap only inside long sections whose type has overlap > 0 (by default: prose): the next chunk starts with
 *    the last whole sentences of the previous one, up to the overlap budget.
 * 5. Source code: TS/JS by top-level statement (functions, classes and their doc comments whole) through the
 *    TypeScript compiler API; other languages by blank-line-separated blocks, then lines.
 *
 * text vs source: `text === source.slice(start, end)` for every chunk but the continuation pieces of a table
 * split past the hard limit, whose text is the table's header row(s), a newline, then `source.slice(start, end)`.
 * That is the choice: spans stay exact and non-overlapping (the header is covered once, by the table's first piece,
 * so real overlap and lost text are not inflated), while the embedded text — and its token cost — holds the header
 * a reader needs to read the rows. Chunk spans are trimmed of surrounding whitespace; whitespace-only chunks are
 * dropped, so only whitespace is ever left uncovered.
 */
import { SeamlabError } from "../core/errors";
import type { Chunk, Doc } from "../core/types";
import { classifyDoc, type TypedSection } from "../corpus/doc-types";
import type { TypeOverride } from "../corpus/type-overrides";
import { DOC_TYPES, type DocType } from "../corpus/types";
import type { Block } from "../text/blocks";
import { codeUnits, isTsJsPath } from "../text/code-units";
import { isWhitespaceCode } from "../text/whitespace";
import { sentenceRegions } from "../text/sentences";
import { countTokens, defaultEncoding } from "../text/tokens";
import type { SplitterConfig } from "./config";

export interface TypeSetting {
  size: number;
  overlap: number;
}

export interface StructureOptions {
  perType: Partial<Record<DocType, TypeSetting>>;
  hardLimit?: number;
  types: TypeOverride[];
}

/** A piece of text the packer places: `[start, end)` tiles its region. */
interface Unit {
  start: number;
  end: number;
  /** must be a chunk of its own (an oversize atomic block, or a piece of a split one) */
  alone: boolean;
  /** a sentence-level prose piece: may be carried into the next chunk as overlap */
  carry: boolean;
  /** table continuation piece: header `[start, end)` prepended to its text */
  header?: [number, number];
  /** a sentence that does not start its paragraph: a chunk ends here only when no paragraph break is near */
  midParagraph?: boolean;
}

function isSetting(value: unknown): value is TypeSetting {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    Number.isInteger(v.size) &&
    Number.isInteger(v.overlap) &&
    Object.keys(v).every((k) => k === "size" || k === "overlap")
  );
}

/** Reads and checks `extra.perType`, `extra.hardLimit` and `extra.types`, naming the bad setting. */
export function structureOptionsFor(config: SplitterConfig): StructureOptions {
  const extra = config.extra ?? {};
  const perTypeRaw = extra.perType ?? {};
  if (typeof perTypeRaw !== "object" || perTypeRaw === null || Array.isArray(perTypeRaw)) {
    throw new SeamlabError(`--per-type must be a JSON object of type -> {"size":N,"overlap":N}`);
  }
  const perType: Partial<Record<DocType, TypeSetting>> = {};
  for (const [type, setting] of Object.entries(perTypeRaw as Record<string, unknown>)) {
    if (!(DOC_TYPES as readonly string[]).includes(type)) {
      throw new SeamlabError(`--per-type: unknown type "${type}"; use one of ${DOC_TYPES.join(", ")}`);
    }
    if (!isSetting(setting)) {
      throw new SeamlabError(
        `--per-type: "${type}" must be {"size":N,"overlap":N} with whole numbers, got ${JSON.stringify(setting)}`,
      );
    }
    if (setting.size < 1 || setting.overlap < 0 || setting.overlap >= setting.size) {
      throw new SeamlabError(
        `--per-type: "${type}" needs size >= 1 and 0 <= overlap < size, got ${JSON.stringify(setting)}`,
      );
    }
    perType[type as DocType] = setting;
  }
  const hardLimit = extra.hardLimit;
  if (hardLimit !== undefined && (!Number.isInteger(hardLimit) || (hardLimit as number) < 1)) {
    throw new SeamlabError(`--hard-limit must be a whole number >= 1, got ${JSON.stringify(hardLimit)}`);
  }
  const types = extra.types ?? [];
  if (!Array.isArray(types)) throw new SeamlabError("structure: extra.types must be a list of type overrides");
  return { perType, hardLimit: hardLimit as number | undefined, types: types as TypeOverride[] };
}

export function checkStructureConfig(config: SplitterConfig): void {
  structureOptionsFor(config);
}

/** The size and overlap a section of `type` is split with. */
export function settingFor(type: DocType, config: SplitterConfig, options: StructureOptions): TypeSetting {
  return options.perType[type] ?? { size: config.size, overlap: type === "prose" ? config.overlap : 0 };
}

interface Context {
  text: string;
  length: (start: number, end: number) => number;
}

function trimmedSpan(text: string, start: number, end: number): [number, number] {
  while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
  while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
  return [start, end];
}

/** `[start, end)` cut at line boundaries into tiles no longer than `size` (a longer line is cut at `size`). */
function lineTiles(ctx: Context, start: number, end: number, size: number): [number, number][] {
  const lines: [number, number][] = [];
  for (let p = start; p < end;) {
    const nl = ctx.text.indexOf("\n", p);
    const next = nl < 0 || nl + 1 > end ? end : nl + 1;
    lines.push([p, next]);
    p = next;
  }
  return packTiles(ctx, lines, size);
}

/** Greedy packing of contiguous tiles into pieces <= size; a tile longer than size is cut at size chars. */
function packTiles(ctx: Context, tiles: [number, number][], size: number): [number, number][] {
  const out: [number, number][] = [];
  let from = -1;
  let to = -1;
  for (const [s, e] of tiles) {
    if (from >= 0 && ctx.length(from, e) <= size) {
      to = e;
      continue;
    }
    if (from >= 0) out.push([from, to]);
    if (ctx.length(s, e) <= size) {
      from = s;
      to = e;
      continue;
    }
    for (let p = s; p < e; p += size) out.push([p, Math.min(e, p + size)]);
    from = -1;
  }
  if (from >= 0) out.push([from, to]);
  return out;
}

/** Prose `[start, end)` as sentence tiles; a sentence longer than `size` as word tiles packed to `size`. */
function sentenceUnits(ctx: Context, start: number, end: number, size: number): Unit[] {
  const regions = sentenceRegions(ctx.text, start, end);
  const bounds = regions.map((r) => r.start);
  bounds[0] = start;
  const units: Unit[] = [];
  for (let i = 0; i < bounds.length; i++) {
    const s = bounds[i];
    const e = i + 1 < bounds.length ? bounds[i + 1] : end;
    if (ctx.length(s, e) <= size) {
      units.push({ start: s, end: e, alone: false, carry: true });
      continue;
    }
    const words: [number, number][] = [];
    const re = /\S+\s*/g;
    re.lastIndex = s;
    let last = s;
    for (let m = re.exec(ctx.text); m !== null && m.index < e; m = re.exec(ctx.text)) {
      const we = Math.min(e, m.index + m[0].length);
      words.push([last, we]);
      last = we;
    }
    if (last < e) words.push([last, e]);
    for (const [ps, pe] of packTiles(ctx, words, size)) units.push({ start: ps, end: pe, alone: false, carry: true });
  }
  if (units.length === 0) units.push({ start, end, alone: false, carry: true });
  for (let i = 1; i < units.length; i++) units[i].midParagraph = true;
  return units;
}

const ATOMIC = new Set(["code", "table", "faq-pair", "turn", "front-matter"]);

/** A table block (tiled to `[start, end)`) past the hard limit: row pieces, continuation pieces carry the header. */
function tableUnits(ctx: Context, block: Block, start: number, end: number, size: number): Unit[] {
  const headerEnd = block.headerEnd ?? block.start;
  const headerNext = ctx.text.indexOf("\n", headerEnd);
  const bodyStart = headerNext < 0 || headerNext + 1 > end ? end : headerNext + 1;
  const headerLength = ctx.length(block.start, headerEnd) + 1;
  // A header longer than half the size is not carried (it would leave too little room for rows).
  if (headerLength > size / 2) {
    return lineTiles(ctx, start, end, size).map(([s, e]) => ({ start: s, end: e, alone: true, carry: false }));
  }
  const rows = lineTiles(ctx, bodyStart, end, size - headerLength);
  const units: Unit[] = [];
  rows.forEach(([s, e], i) => {
    if (i === 0) units.push({ start, end: e, alone: true, carry: false });
    else units.push({ start: s, end: e, alone: true, carry: false, header: [block.start, headerEnd] });
  });
  if (units.length === 0) units.push({ start, end, alone: true, carry: false });
  return units;
}

/** The units of one long section, tiling `[section.start, section.end)`. */
function sectionUnits(ctx: Context, section: TypedSection, setting: TypeSetting, hardLimit: number): Unit[] {
  const blocks = section.section.blocks;
  const size = setting.size;
  if (blocks.length === 0) return sentenceUnits(ctx, section.start, section.end, size);
  // Tiles: each block runs to the next block's start; the first starts at the section start; a heading is glued
  // to the block after it.
  const tiles: { block: Block; start: number; end: number }[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const start = i === 0 ? section.start : blocks[i].start;
    const end = i + 1 < blocks.length ? blocks[i + 1].start : section.end;
    const previous = tiles[tiles.length - 1];
    if (previous && previous.block.kind === "heading") {
      previous.end = end;
      previous.block = blocks[i];
    } else {
      tiles.push({ block: blocks[i], start, end });
    }
  }
  const units: Unit[] = [];
  // With overlap, prose is placed sentence by sentence so the next chunk can start with the last whole sentences.
  const granular = setting.overlap > 0;
  for (const tile of tiles) {
    const length = ctx.length(tile.start, tile.end);
    const prose = tile.block.kind === "paragraph" || tile.block.kind === "list-item";
    if (granular && prose) {
      for (const item of sentenceUnits(ctx, tile.start, tile.end, size)) units.push(item);
    } else if (length <= size) {
      units.push({ start: tile.start, end: tile.end, alone: false, carry: false });
    } else if (ATOMIC.has(tile.block.kind) && length <= hardLimit) {
      units.push({ start: tile.start, end: tile.end, alone: true, carry: false });
    } else if (tile.block.kind === "table") {
      for (const item of tableUnits(ctx, tile.block, tile.start, tile.end, size)) units.push(item);
    } else if (tile.block.kind === "code" || tile.block.kind === "front-matter") {
      for (const [s, e] of lineTiles(ctx, tile.start, tile.end, size))
        units.push({ start: s, end: e, alone: true, carry: false });
    } else {
      for (const item of sentenceUnits(ctx, tile.start, tile.end, size)) units.push(item);
    }
  }
  return units;
}

/** Greedy packing of contiguous units into chunk spans; carry units repeat as overlap up to `overlap`. */
function packUnits(
  ctx: Context,
  units: Unit[],
  setting: TypeSetting,
): { start: number; end: number; header?: [number, number] }[] {
  const out: { start: number; end: number; header?: [number, number] }[] = [];
  let i = 0;
  while (i < units.length) {
    if (units[i].alone) {
      out.push({ start: units[i].start, end: units[i].end, header: units[i].header });
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < units.length && !units[j + 1].alone && ctx.length(units[i].start, units[j + 1].end) <= setting.size)
      j++;
    // Prefer ending at a paragraph break when one leaves the chunk at least half full.
    if (j + 1 < units.length && units[j + 1].midParagraph) {
      for (let b = j - 1; b >= i; b--) {
        if (ctx.length(units[i].start, units[b].end) < setting.size / 2) break;
        if (!units[b + 1].midParagraph) {
          j = b;
          break;
        }
      }
    }
    out.push({ start: units[i].start, end: units[j].end });
    if (j + 1 >= units.length) break;
    // Overlap: the longest run of trailing carry units within the budget that still leaves room for the next unit.
    let k = j + 1;
    if (setting.overlap > 0 && !units[j + 1].alone) {
      while (
        k - 1 > i &&
        units[k - 1].carry &&
        ctx.length(units[k - 1].start, units[j].end) <= setting.overlap &&
        ctx.length(units[k - 1].start, units[j + 1].end) <= setting.size
      ) {
        k--;
      }
    }
    i = k;
  }
  return out;
}

function chunkOf(doc: Doc, start: number, end: number, header?: [number, number]): Chunk | undefined {
  const [s, e] = trimmedSpan(doc.text, start, end);
  if (e <= s) return undefined;
  const text = doc.text.slice(s, e);
  return { doc: doc.id, start: s, end: e, text: header ? `${doc.text.slice(header[0], header[1])}\n${text}` : text };
}

/** The chunks of one document; see the module comment. */
export function splitStructure(doc: Doc, config: SplitterConfig): Chunk[] {
  const options = structureOptionsFor(config);
  const text = doc.text;
  const encoding = config.encoding ?? defaultEncoding;
  const ctx: Context = {
    text,
    length: (config.unit ?? "chars") === "tokens" ? (s, e) => countTokens(text.slice(s, e), encoding) : (s, e) => e - s,
  };
  const hardLimitFor = (setting: TypeSetting) => Math.max(options.hardLimit ?? 2 * config.size, setting.size);
  const typed = classifyDoc(doc, options.types);
  const spans: { start: number; end: number; header?: [number, number] }[] = [];
  if (
    typed.sections.length === 1 &&
    typed.sections[0].section.blocks.length === 0 &&
    (typed.type === "code" || typed.type === "table")
  ) {
    const setting = settingFor(typed.type, config, options);
    for (const item of packUnits(ctx, wholeFileUnits(ctx, doc, typed.type, setting, hardLimitFor(setting)), setting))
      spans.push(item);
  } else {
    // Sections first: runs of whole sections of one type share a chunk while they fit.
    let group: { start: number; end: number; type: DocType } | undefined;
    const flush = () => {
      if (group) spans.push({ start: group.start, end: group.end });
      group = undefined;
    };
    for (const section of typed.sections) {
      const setting = settingFor(section.type, config, options);
      if (group && group.type === section.type && ctx.length(group.start, section.end) <= setting.size) {
        group.end = section.end;
        continue;
      }
      flush();
      if (ctx.length(section.start, section.end) <= setting.size) {
        group = { start: section.start, end: section.end, type: section.type };
      } else {
        for (const item of packUnits(ctx, sectionUnits(ctx, section, setting, hardLimitFor(setting)), setting))
          spans.push(item);
      }
    }
    flush();
  }
  const chunks: Chunk[] = [];
  for (const span of spans) {
    const chunk = chunkOf(doc, span.start, span.end, span.header);
    if (chunk) chunks.push(chunk);
  }
  return chunks;
}

/** Source files and CSVs: TS/JS statements, CSV rows (header carried), or blank-line blocks of other code. */
function wholeFileUnits(ctx: Context, doc: Doc, type: DocType, setting: TypeSetting, hardLimit: number): Unit[] {
  const text = ctx.text;
  const size = setting.size;
  const units: Unit[] = [];
  if (type === "table") {
    const firstNewline = text.indexOf("\n");
    const headerEnd = firstNewline < 0 ? text.length : firstNewline;
    if (ctx.length(0, text.length) <= size) return [{ start: 0, end: text.length, alone: false, carry: false }];
    if (ctx.length(0, text.length) <= hardLimit) return [{ start: 0, end: text.length, alone: true, carry: false }];
    const block: Block = { kind: "table", start: 0, end: text.length, headerEnd };
    return tableUnits(ctx, block, 0, text.length, size);
  }
  let tiles: { start: number; end: number; atomic: boolean }[];
  if (isTsJsPath(doc.source ?? doc.id)) {
    tiles = codeUnits(text, doc.source ?? doc.id).map((u) => ({ start: u.start, end: u.end, atomic: true }));
  } else {
    tiles = [];
    const blankRun = /\n[ \t]*\n/g;
    let from = 0;
    for (let m = blankRun.exec(text); m !== null; m = blankRun.exec(text)) {
      tiles.push({ start: from, end: m.index + 1, atomic: false });
      from = m.index + 1;
    }
    tiles.push({ start: from, end: text.length, atomic: false });
  }
  for (const tile of tiles) {
    const length = ctx.length(tile.start, tile.end);
    if (length <= size) units.push({ start: tile.start, end: tile.end, alone: false, carry: false });
    else if (tile.atomic && length <= hardLimit)
      units.push({ start: tile.start, end: tile.end, alone: true, carry: false });
    else
      for (const [s, e] of lineTiles(ctx, tile.start, tile.end, size))
        units.push({ start: s, end: e, alone: true, carry: false });
  }
  return units;
}
