import { tokenize } from "./tokenize";

/** A half-open region `[start, end)` of document `doc`. Chunks and gold spans both fit. */
export interface Span {
  doc: string;
  start: number;
  end: number;
}

export type SpanScores = { recall: number; precision: number; iou: number };

export function containsSpan(outer: Span, inner: Span): boolean {
  return outer.doc === inner.doc && outer.start <= inner.start && outer.end >= inner.end;
}

/** True when the spans share a character (touching spans do not). */
export function spansOverlap(a: Span, b: Span): boolean {
  return a.doc === b.doc && a.start < b.end && b.start < a.end;
}

/** Sorts spans by document then start and merges those that overlap or touch. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans
    .filter((s) => s.end > s.start)
    .sort((a, b) => (a.doc < b.doc ? -1 : a.doc > b.doc ? 1 : a.start - b.start || a.end - b.end));
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.doc === span.doc && span.start <= last.end) {
      if (span.end > last.end) merged[merged.length - 1] = { ...last, end: span.end };
    } else {
      merged.push({ doc: span.doc, start: span.start, end: span.end });
    }
  }
  return merged;
}

export function totalLength(spans: readonly Span[]): number {
  return spans.reduce((sum, s) => sum + Math.max(0, s.end - s.start), 0);
}

function intersectionLength(mergedA: readonly Span[], mergedB: readonly Span[]): number {
  let shared = 0;
  for (const a of mergedA)
    for (const b of mergedB)
      if (a.doc === b.doc) shared += Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
  return shared;
}

/** Span scores, overlapping text counted once: over the unions R and G, |R∩G|/|G|, |R∩G|/|R|, |R∩G|/|R∪G|. */
export function spanScoresMerged(retrieved: readonly Span[], gold: readonly Span[]): SpanScores {
  const r = mergeSpans(retrieved);
  const g = mergeSpans(gold);
  const shared = intersectionLength(r, g);
  const rLength = totalLength(r);
  const gLength = totalLength(g);
  const union = rLength + gLength - shared;
  return {
    recall: gLength === 0 ? 0 : shared / gLength,
    precision: rLength === 0 ? 0 : shared / rLength,
    iou: union === 0 ? 0 : shared / union,
  };
}

/**
 * Span scores as Chroma's chunking evaluation (`base_evaluation.py`) computes them: gold text retrieved (once) over
 * the *summed* retrieved lengths (overlaps counted twice), over that sum plus unreached gold (IoU), over summed gold.
 */
export function spanScoresChroma(retrieved: readonly Span[], gold: readonly Span[]): SpanScores {
  const r = mergeSpans(retrieved);
  const numerator = intersectionLength(r, mergeSpans(gold));
  let unused = 0;
  for (const g of gold) unused += g.end - g.start - intersectionLength(r, [g]);
  const retrievedSum = totalLength(retrieved);
  const goldSum = totalLength(gold);
  return {
    recall: goldSum === 0 ? 0 : numerator / goldSum,
    precision: retrievedSum === 0 ? 0 : numerator / retrievedSum,
    iou: retrievedSum + unused === 0 ? 0 : numerator / (retrievedSum + unused),
  };
}

/** How many of the ranked spans overlap no higher-ranked one. */
export function distinctPassages(ranked: readonly Span[]): number {
  return ranked.filter((span, i) => !ranked.slice(0, i).some((higher) => spansOverlap(span, higher))).length;
}

export function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const term of small) if (large.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

/** A text's term set for near-duplicate checks (no stemming, no stop words). */
export function termSet(text: string): Set<string> {
  return new Set(tokenize(text));
}

/**
 * Term ids for near-duplicate sets, shared by every chunk array of the process: the configs of a sweep retrieve many
 * of the same chunk texts (half of them in notebook 03), so a text's set is made once. The vocabulary holds the terms
 * of retrieved texts and only grows (ids never change meaning); the sets by text are dropped past a cap.
 */
const termIds = new Map<string, number>();
const setsByText = new Map<string, Int32Array>();
let textCharsHeld = 0;
const TEXT_CHARS_CAP = 16_000_000;
const setsByChunks = new WeakMap<readonly { text: string }[], Map<number, Int32Array>>();

/** Chunk `index`'s distinct term ids, ascending, memoised for evaluations and rerankers (one set per text). */
export function chunkTermIds(chunks: readonly { text: string }[], index: number): Int32Array {
  let sets = setsByChunks.get(chunks);
  if (sets === undefined) setsByChunks.set(chunks, (sets = new Map()));
  const known = sets.get(index);
  if (known !== undefined) return known;
  const text = chunks[index].text;
  let set = setsByText.get(text);
  if (set === undefined) {
    set = distinctTermIds(text);
    if (textCharsHeld + text.length > TEXT_CHARS_CAP) {
      setsByText.clear();
      textCharsHeld = 0;
    }
    setsByText.set(text, set);
    textCharsHeld += text.length;
  }
  sets.set(index, set);
  return set;
}

function distinctTermIds(text: string): Int32Array {
  const terms = tokenize(text);
  const all = new Int32Array(terms.length);
  for (let i = 0; i < terms.length; i++) {
    let id = termIds.get(terms[i]);
    if (id === undefined) termIds.set(terms[i], (id = termIds.size));
    all[i] = id;
  }
  all.sort();
  let distinct = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[distinct++] = all[i];
  return all.slice(0, distinct);
}

/** `jaccard` of two sets given as ascending distinct ids, without a hash set per text. */
export function sortedIdJaccard(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      shared++;
      i++;
      j++;
    }
  }
  return shared / (a.length + b.length - shared);
}

/** How many ranked items are near-duplicates of a higher-ranked one: `similarity` (term-set Jaccard) >= threshold. */
export function nearDuplicateCount<T = ReadonlySet<string>>(
  rankedTermSets: readonly T[],
  threshold: number,
  similarity: (a: T, b: T) => number = jaccard as unknown as (a: T, b: T) => number,
): number {
  const isCopy = (set: T, i: number) =>
    rankedTermSets.slice(0, i).some((higher) => similarity(set, higher) >= threshold);
  return rankedTermSets.filter(isCopy).length;
}
