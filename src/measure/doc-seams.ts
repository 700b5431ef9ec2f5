// `seamlab seams` one document at a time: each document reduced to plain JSON (cached per document), summed into
// exactly the summary `measureSplitterConfig` gives for the whole corpus, without holding the corpus text.
import { totalChars, type Chunk, type Doc } from "../core/types";
import { classifyDoc } from "../corpus/doc-types";
import type { TypeOverride } from "../corpus/type-overrides";
import { DOC_TYPES } from "../corpus/types";
import type { SplitterConfig } from "../splitters/config";
import { unitOf } from "../splitters/registry";
import { lengthFunctionFor } from "../text/tokens";
import { measureLostText } from "./lost";
import { measureBackwardOpeners, wordCounts, type OpenerSample } from "./openers";
import { measureSeamDamage, seamDamageFromCounts } from "./pairs";
import { paragraphBudgetOf, paragraphLengths } from "./paragraphs";
import { measureSeams } from "./seams";
import { chunkSizesOf } from "./sizes";
import { measureStructureDamage, structureLimitUnit, type StructureDamage } from "./structure-damage";
import { summariseSeams } from "./summary";

/** Backward openers kept: the corpus keeps its first few, so no document needs more. */
const OPENER_SAMPLES = 5;

export type DocSeams = ReturnType<typeof measureDocSeams>;

export function measureDocSeams(
  doc: Doc,
  chunks: readonly Chunk[],
  config: SplitterConfig,
  options: { overrides?: readonly TypeOverride[]; structureLimit: number },
) {
  const docs = [doc];
  const unit = unitOf(config);
  const lengthOf = lengthFunctionFor(unit, config.encoding);
  const seams = measureSeams(docs, chunks, { countTokens: unit === "tokens" ? lengthOf : undefined });
  const damage = measureSeamDamage(docs, chunks);
  const openers = measureBackwardOpeners(docs, chunks, seams, { maxSamples: OPENER_SAMPLES });
  return {
    doc: doc.id,
    chars: doc.text.length,
    /** flat: start0, end0, start1, end1, ... */
    spans: chunks.flatMap((chunk) => [chunk.start, chunk.end]),
    /** in the config's unit */
    chunkLengths: chunks.map((chunk) => lengthOf(chunk.text)),
    chunkChars: totalChars(chunks),
    overlaps: seams.map((seam) => seam.overlap),
    gaps: seams.map((seam) => seam.gap),
    gapLostChars: seams.map((seam) => seam.gapLostChars),
    lostChars: measureLostText(docs, chunks).lostChars,
    pairs: damage.pairs,
    kept: damage.kept,
    paragraphLengths: paragraphLengths(doc, lengthOf),
    openers: {
      zero: openers.zeroOverlapSeams,
      backward: openers.backwardOpeners,
      words: openers.byWord.map(({ word, count }): [string, number] => [word, count]),
      samples: openers.samples,
    },
    structure: measureStructureDamage(docs, chunks, {
      typed: [classifyDoc(doc, options.overrides ?? [])],
      limit: options.structureLimit,
      unit: structureLimitUnit(config),
      encoding: config.encoding,
    }),
    ...(unit === "tokens" ? { overlapTokens: seams.map((seam) => seam.overlapTokens ?? 0) } : {}),
  };
}

/** Enough to weigh documents (e.g. for sampling) without the text. */
function docSummary(part: DocSeams) {
  const { doc, chars, lostChars } = part;
  const zeroOverlapSeams = part.overlaps.filter((overlap) => overlap === 0).length;
  return { doc, chars, chunks: part.chunkLengths.length, seams: part.overlaps.length, zeroOverlapSeams, lostChars };
}

export type SeamTotals = ReturnType<typeof createSeamTotals>;

export function createSeamTotals() {
  return {
    docs: [] as ReturnType<typeof docSummary>[],
    corpusChars: 0,
    chunkChars: 0,
    chunkLengths: [] as number[],
    overlaps: [] as number[],
    overlapTokens: [] as number[],
    gapSeams: 0,
    lostChars: 0,
    docsWithLostText: 0,
    pairs: 0,
    kept: 0,
    paragraphLengths: [] as number[],
    openerZero: 0,
    openerBackward: 0,
    openerWords: new Map<string, number>(),
    openerSamples: [] as OpenerSample[],
    structure: undefined as StructureDamage | undefined,
  };
}

// push(...list) overflows the stack on very long lists
function append(into: number[], values: readonly number[]): void {
  for (const value of values) into.push(value);
}

/** Add documents in corpus order, so the samples are the first ones. */
export function addDocSeams(totals: SeamTotals, part: DocSeams): void {
  totals.docs.push(docSummary(part));
  totals.corpusChars += part.chars;
  totals.chunkChars += part.chunkChars;
  append(totals.chunkLengths, part.chunkLengths);
  append(totals.overlaps, part.overlaps);
  if (part.overlapTokens) append(totals.overlapTokens, part.overlapTokens);
  for (const gap of part.gaps) if (gap > 0) totals.gapSeams++;
  totals.lostChars += part.lostChars;
  if (part.lostChars > 0) totals.docsWithLostText++;
  totals.pairs += part.pairs;
  totals.kept += part.kept;
  append(totals.paragraphLengths, part.paragraphLengths);
  totals.openerZero += part.openers.zero;
  totals.openerBackward += part.openers.backward;
  for (const [word, count] of part.openers.words)
    totals.openerWords.set(word, (totals.openerWords.get(word) ?? 0) + count);
  totals.openerSamples.push(...part.openers.samples.slice(0, OPENER_SAMPLES - totals.openerSamples.length));
  totals.structure = totals.structure ? sumStructureDamage(totals.structure, part.structure) : part.structure;
}

export function finishSeamTotals(
  totals: SeamTotals,
  config: SplitterConfig,
  options: { limit?: number; structureLimit: number },
) {
  const unit = unitOf(config);
  const { chunkChars, corpusChars } = totals;
  const sizes = chunkSizesOf(totals.chunkLengths, { chunkChars, corpusChars, limit: options.limit ?? config.size });
  const summary = summariseSeams(
    {
      docs: totals.docs.length,
      overlaps: totals.overlaps,
      ...(unit === "tokens" ? { overlapTokens: totals.overlapTokens } : {}),
      gapSeams: totals.gapSeams,
      lostChars: totals.lostChars,
      docsWithLostText: totals.docsWithLostText,
    },
    sizes,
    config.overlap,
    unit,
  );
  return {
    config,
    summary,
    seamDamage: seamDamageFromCounts(totals.kept, totals.pairs),
    openers: {
      zeroOverlapSeams: totals.openerZero,
      backwardOpeners: totals.openerBackward,
      byWord: wordCounts(totals.openerWords),
      samples: totals.openerSamples,
    },
    paragraphs: paragraphBudgetOf(totals.paragraphLengths, config.overlap),
    structure:
      totals.structure ??
      measureStructureDamage([], [], { limit: options.structureLimit, unit: structureLimitUnit(config) }),
    perDoc: totals.docs,
  };
}

/** Structure damage of two disjoint sets of documents (same limit); may share objects with its arguments. */
function sumStructureDamage(a: StructureDamage, b: StructureDamage): StructureDamage {
  const byType: StructureDamage["byType"] = {};
  for (const type of DOC_TYPES) {
    const [x, y] = [a.byType[type], b.byType[type]];
    if (x && y) byType[type] = addCounts(x, y);
    else if (x ?? y) byType[type] = (x ?? y)!;
  }
  return {
    seams: a.seams + b.seams,
    limit: a.limit,
    ...(a.limitUnit ? { limitUnit: a.limitUnit } : {}),
    kinds: addCounts(a.kinds, b.kinds),
    anyDamaged: a.anyDamaged + b.anyDamaged,
    byType,
  };
}

/** Counts summed key by key, in nested records too (same keys on both sides). */
function addCounts<T extends object>(x: T, y: T): T {
  const sum = { ...x } as Record<string, unknown>;
  for (const key of Object.keys(sum)) {
    const [u, v] = [sum[key], (y as Record<string, unknown>)[key]];
    sum[key] = typeof u === "number" ? u + (v as number) : addCounts(u as object, v as object);
  }
  return sum as T;
}
