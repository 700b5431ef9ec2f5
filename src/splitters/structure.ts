// `structure`: document structure first, overlap only inside long prose, with a size and overlap per document type
// (`corpus/doc-types`, `extra.perType`). Whole markdown sections of one type share a chunk while they fit; a longer
// one is cut into blocks: code, tables, FAQ pairs and turns stay whole up to the hard limit, prose splits at sentences
// and carries whole sentences as overlap; TS/JS splits by top-level statement. A table's continuation pieces embed its
// header row before their text: spans stay exact and non-overlapping while the text holds the header a reader needs.
import { SeamlabError } from "../core/errors";
import type { Chunk, Doc } from "../core/types";
import { classifyDoc, type TypedSection } from "../corpus/doc-types";
import type { TypeOverride } from "../corpus/type-overrides";
import { DOC_TYPES, type DocType } from "../corpus/types";
import type { Block } from "../text/blocks";
import { codeUnits, isTsJsPath } from "../text/code-units";
import { trimSpan } from "../text/words";
import { sentenceRegions } from "../text/sentences";
import { countTokens, defaultEncoding } from "../text/tokens";
import type { SplitterConfig } from "./config";

interface TypeSetting {
  size: number;
  overlap: number;
}

/** A piece of text the packer places: `[start, end)` tiles its region. */
interface Unit {
  start: number;
  end: number;
  /** a chunk of its own (an oversize atomic block, or a piece of a split one) */
  alone: boolean;
  /** a sentence-level prose piece: may be carried into the next chunk as overlap */
  carry: boolean;
  /** table continuation piece: header `[start, end)` prepended to its text */
  header?: [number, number];
  /** not its paragraph's first sentence: a chunk ends here only when no paragraph break is near */
  midParagraph?: boolean;
}

/** Reads and checks `extra.perType`, `extra.hardLimit` and `extra.types`, naming the bad setting. */
export function structureOptionsFor(config: SplitterConfig) {
  const extra = config.extra ?? {};
  const perTypeRaw = extra.perType ?? {};
  if (typeof perTypeRaw !== "object" || perTypeRaw === null || Array.isArray(perTypeRaw)) {
    throw new SeamlabError(`--per-type must be a JSON object of type -> {"size":N,"overlap":N}`);
  }
  const perType: Partial<Record<DocType, TypeSetting>> = {};
  for (const [type, value] of Object.entries(perTypeRaw as Record<string, unknown>)) {
    if (!(DOC_TYPES as readonly string[]).includes(type)) {
      throw new SeamlabError(`--per-type: unknown type "${type}"; use one of ${DOC_TYPES.join(", ")}`);
    }
    const setting = (typeof value === "object" && value !== null ? value : {}) as TypeSetting;
    const only = Object.keys(setting).every((k) => k === "size" || k === "overlap");
    if (!Number.isInteger(setting.size) || !Number.isInteger(setting.overlap) || !only) {
      throw new SeamlabError(
        `--per-type: "${type}" must be {"size":N,"overlap":N} with whole numbers, got ${JSON.stringify(value)}`,
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

type Setting = TypeSetting & { hardLimit: number };

/** The size, overlap and hard limit a section of `type` is split with. */
function settingFor(type: DocType, config: SplitterConfig, options: ReturnType<typeof structureOptionsFor>): Setting {
  const { size, overlap } = options.perType[type] ?? {
    size: config.size,
    overlap: type === "prose" ? config.overlap : 0,
  };
  return { size, overlap, hardLimit: Math.max(options.hardLimit ?? 2 * config.size, size) };
}

interface Context {
  text: string;
  length: (start: number, end: number) => number;
}

/** `[start, end)` cut at line boundaries into units alone, no longer than `size` (a longer line is cut at `size`). */
function lineUnits(ctx: Context, start: number, end: number, size: number): Unit[] {
  const lines: [number, number][] = [];
  for (let p = start; p < end;) {
    const nl = ctx.text.indexOf("\n", p);
    const next = nl < 0 || nl + 1 > end ? end : nl + 1;
    lines.push([p, next]);
    p = next;
  }
  return packTiles(ctx, lines, size).map(([s, e]) => ({ start: s, end: e, alone: true, carry: false }));
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

/** A tile as one unit when it fits, alone when atomic within the hard limit, else `split()`. */
function fitOrSplit(ctx: Context, start: number, end: number, atomic: boolean, setting: Setting, split: () => Unit[]) {
  const length = ctx.length(start, end);
  if (length <= setting.size) return [{ start, end, alone: false, carry: false }];
  if (atomic && length <= setting.hardLimit) return [{ start, end, alone: true, carry: false }];
  return split();
}

/** A table block (tiled to `[start, end)`) past the hard limit: row pieces, continuation pieces carry the header. */
function tableUnits(ctx: Context, block: Block, start: number, end: number, size: number): Unit[] {
  const headerEnd = block.headerEnd ?? block.start;
  const headerNext = ctx.text.indexOf("\n", headerEnd);
  const bodyStart = headerNext < 0 || headerNext + 1 > end ? end : headerNext + 1;
  const headerLength = ctx.length(block.start, headerEnd) + 1;
  // A header longer than half the size is not carried (it would leave too little room for rows).
  if (headerLength > size / 2) return lineUnits(ctx, start, end, size);
  const units = lineUnits(ctx, bodyStart, end, size - headerLength);
  if (units.length === 0) return [{ start, end, alone: true, carry: false }];
  units[0].start = start;
  for (let i = 1; i < units.length; i++) units[i].header = [block.start, headerEnd];
  return units;
}

/** The units of one long section, tiling `[section.start, section.end)`. */
function sectionUnits(ctx: Context, section: TypedSection, setting: Setting): Unit[] {
  const blocks = section.section.blocks;
  const size = setting.size;
  if (blocks.length === 0) return sentenceUnits(ctx, section.start, section.end, size);
  // Each block runs to the next block's start, the first from the section start; a heading joins the next block.
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
  // With overlap, prose goes sentence by sentence so the next chunk can start with the last whole sentences.
  return tiles.flatMap(({ block, start, end }) =>
    setting.overlap > 0 && (block.kind === "paragraph" || block.kind === "list-item")
      ? sentenceUnits(ctx, start, end, size)
      : fitOrSplit(ctx, start, end, ATOMIC.has(block.kind), setting, () =>
          block.kind === "table"
            ? tableUnits(ctx, block, start, end, size)
            : block.kind === "code" || block.kind === "front-matter"
              ? lineUnits(ctx, start, end, size)
              : sentenceUnits(ctx, start, end, size),
        ),
  );
}

type Span = { start: number; end: number; header?: [number, number] };

/** Greedy packing of contiguous units into chunk spans; carry units repeat as overlap up to `overlap`. */
function packUnits(ctx: Context, units: Unit[], setting: Setting): Span[] {
  const out: Span[] = [];
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

function chunkOf(doc: Doc, { start, end, header }: Span): Chunk[] {
  const [s, e] = trimSpan(doc.text, start, end);
  if (e <= s) return [];
  const text = doc.text.slice(s, e);
  return [{ doc: doc.id, start: s, end: e, text: header ? `${doc.text.slice(header[0], header[1])}\n${text}` : text }];
}

export function splitStructure(doc: Doc, config: SplitterConfig): Chunk[] {
  const options = structureOptionsFor(config);
  const text = doc.text;
  const encoding = config.encoding ?? defaultEncoding;
  const ctx: Context = {
    text,
    length: (config.unit ?? "chars") === "tokens" ? (s, e) => countTokens(text.slice(s, e), encoding) : (s, e) => e - s,
  };
  const typed = classifyDoc(doc, options.types);
  const spans: Span[] = [];
  const pack = (units: Unit[], setting: Setting) => {
    for (const span of packUnits(ctx, units, setting)) spans.push(span);
  };
  const [only] = typed.sections;
  if (
    typed.sections.length === 1 &&
    only.section.blocks.length === 0 &&
    (typed.type === "code" || typed.type === "table")
  ) {
    const setting = settingFor(typed.type, config, options);
    pack(wholeFileUnits(ctx, doc, typed.type, setting), setting);
  } else {
    // Sections first: runs of whole sections of one type share a chunk while they fit.
    let group: (Span & { type: DocType }) | undefined;
    for (const section of typed.sections) {
      const setting = settingFor(section.type, config, options);
      if (group && group.type === section.type && ctx.length(group.start, section.end) <= setting.size) {
        group.end = section.end;
        continue;
      }
      if (group) spans.push({ start: group.start, end: group.end });
      group = undefined;
      if (ctx.length(section.start, section.end) <= setting.size)
        group = { start: section.start, end: section.end, type: section.type };
      else pack(sectionUnits(ctx, section, setting), setting);
    }
    if (group) spans.push({ start: group.start, end: group.end });
  }
  return spans.flatMap((span) => chunkOf(doc, span));
}

/** Source files and CSVs: TS/JS statements, CSV rows (header carried), or blank-line blocks of other code. */
function wholeFileUnits(ctx: Context, doc: Doc, type: DocType, setting: Setting): Unit[] {
  const text = ctx.text;
  if (type === "table") {
    const newline = text.indexOf("\n");
    const block: Block = { kind: "table", start: 0, end: text.length, headerEnd: newline < 0 ? text.length : newline };
    return fitOrSplit(ctx, 0, text.length, true, setting, () => tableUnits(ctx, block, 0, text.length, setting.size));
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
  return tiles.flatMap(({ start, end, atomic }) =>
    fitOrSplit(ctx, start, end, atomic, setting, () => lineUnits(ctx, start, end, setting.size)),
  );
}
