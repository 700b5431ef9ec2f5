// Spans for a library's chunk texts, by ordered search aware of what libraries trim and rewrite.
// First `langchain.ts`'s exact search. Failing that, each chunk is placed in order (from its predecessor's start,
// preferring a match ending at or after the predecessor's end) by the first of: the text itself; the text without
// whitespace in the source without whitespace (collapsed or trimmed joins); letters and digits only (dropped "#"
// marks), widened over the chunk's edge punctuation; windows of 24, 12, then 8 letters and digits at its head and
// tail (text the library mangled inside: LlamaIndex's "{{ABBREV_2}}", Mastra's "#{1,6}" in headings). A chunk not
// found after its predecessor is searched from the start; one found by none of these throws: never guessed.
import type { Chunk, Doc } from "../core/types";
import { lowerBound } from "../core/sorted";
import { SeamlabError } from "../core/errors";
import { isWhitespaceCode } from "../text/whitespace";
import { locateChunks } from "./langchain";

/** The characters of a text kept by `keep`, with each one's source offset. */
interface Projection {
  text: string;
  offsets: Int32Array;
}

function project(text: string, keep: (code: number) => boolean): Projection {
  const offsets = new Int32Array(text.length);
  let kept = "";
  let n = 0;
  let runStart = -1;
  for (let i = 0; i < text.length; i++) {
    if (keep(text.charCodeAt(i))) {
      if (runStart < 0) runStart = i;
      offsets[n++] = i;
    } else if (runStart >= 0) {
      kept += text.slice(runStart, i);
      runStart = -1;
    }
  }
  if (runStart >= 0) kept += text.slice(runStart);
  return { text: kept, offsets: offsets.subarray(0, n) };
}

const notWhitespace = (code: number): boolean => !isWhitespaceCode(code);

/** Letters and digits (any script); surrogate halves count so astral letters survive. */
function isWordCode(code: number): boolean {
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  if (code >= 0xd800 && code <= 0xdfff) return true;
  return /[\p{L}\p{N}]/u.test(String.fromCharCode(code));
}

/** Source span of `needle` projected like `source`, searched from source offset `from`; null when absent. */
function findProjected(source: Projection, needle: string, from: number, prevEnd: number): [number, number] | null {
  if (needle.length === 0) return null;
  let at = source.text.indexOf(needle, lowerBound(source.offsets, from));
  let first: [number, number] | null = null;
  while (at >= 0) {
    const span: [number, number] = [source.offsets[at], source.offsets[at + needle.length - 1] + 1];
    if (!first) first = span;
    if (span[1] >= prevEnd) return span;
    at = source.text.indexOf(needle, at + 1);
  }
  return first;
}

/** The span from the first head window of `needle` found from `from` to the last tail window found after it. */
function findByEnds(source: Projection, needle: string, from: number): [number, number] | null {
  const floor = lowerBound(source.offsets, from);
  for (const size of [24, 12, 8]) {
    const windowLength = Math.min(size, Math.floor(needle.length / 4));
    if (windowLength < 4) return null;
    for (let p = 0; p + windowLength <= needle.length; p += windowLength) {
      const at = source.text.indexOf(needle.slice(p, p + windowLength), floor);
      if (at < 0) continue;
      const start = Math.max(floor, at - p);
      for (let q = needle.length - windowLength; q > p; q -= windowLength) {
        const tail = source.text.indexOf(needle.slice(q, q + windowLength), at + windowLength);
        if (tail < 0 || tail - at > 2 * needle.length + 64) continue;
        const end = Math.min(source.text.length, tail + (needle.length - q));
        return [source.offsets[start], source.offsets[end - 1] + 1];
      }
    }
  }
  return null;
}

/** Widen [start, end) over the chunk's leading/trailing non-word characters where the source has them. */
function widenOverPunctuation(source: string, text: string, start: number, end: number): [number, number] {
  let lead = 0;
  while (lead < text.length && !isWordCode(text.charCodeAt(lead))) lead++;
  let s = start;
  for (let k = lead - 1; k >= 0 && s > 0 && source[s - 1] === text[k]; k--) s--;
  let trail = text.length;
  while (trail > 0 && !isWordCode(text.charCodeAt(trail - 1))) trail--;
  let e = end;
  for (let k = trail; k < text.length && e < source.length && source[e] === text[k]; k++) e++;
  return [s, e];
}

export type SpanMatch = "exact" | "whitespace" | "rewritten";

/** Spans for `anchors` (the source-derived part of each chunk), carrying `texts` (what is embedded) as text. */
export function locateLibraryChunks(library: string, doc: Doc, texts: string[], anchors: string[] = texts): Chunk[] {
  try {
    const exact = locateChunks(doc, anchors, true);
    return anchors === texts ? exact : exact.map((c, i) => ({ ...c, text: texts[i] }));
  } catch {
    // some chunk is not verbatim in the source
  }
  const source = doc.text;
  let spaced: Projection | undefined;
  let words: Projection | undefined;
  const place = (anchor: string, from: number, prevEnd: number): [number, number] | null => {
    let at = anchor.length > 0 ? source.indexOf(anchor, from) : -1;
    while (at >= 0 && at + anchor.length < prevEnd) at = source.indexOf(anchor, at + 1);
    if (at >= 0) return [at, at + anchor.length];
    spaced ??= project(source, notWhitespace);
    const bySpace = findProjected(spaced, project(anchor, notWhitespace).text, from, prevEnd);
    if (bySpace) return bySpace;
    words ??= project(source, isWordCode);
    const needle = project(anchor, isWordCode).text;
    const byWords = findProjected(words, needle, from, prevEnd);
    if (byWords) return widenOverPunctuation(source, anchor, byWords[0], byWords[1]);
    return findByEnds(words, needle, from);
  };
  const chunks: Chunk[] = [];
  let prevStart = 0;
  let prevEnd = 0;
  for (let i = 0; i < anchors.length; i++) {
    const anchor = anchors[i];
    let span = place(anchor, prevStart, prevEnd) ?? (prevStart > 0 ? place(anchor, 0, 0) : null);
    if (!span && anchor.trim() === "") span = [prevEnd, prevEnd];
    if (!span) {
      throw new SeamlabError(
        `${library}: chunk ${i} of document "${doc.id}" (${JSON.stringify(anchor.slice(0, 60))}…) is not in the ` +
          `source, even ignoring whitespace and punctuation: the library rewrote it beyond recognition`,
      );
    }
    chunks.push({ doc: doc.id, start: span[0], end: span[1], text: texts[i] });
    prevStart = span[0];
    prevEnd = Math.max(span[0], span[1]);
  }
  return chunks;
}

/** How a chunk's span relates to its text: verbatim, equal up to whitespace, or rewritten. */
export function spanMatch(doc: Doc, chunk: Chunk): SpanMatch {
  const covered = doc.text.slice(chunk.start, chunk.end);
  if (covered === chunk.text) return "exact";
  if (project(covered, notWhitespace).text === project(chunk.text, notWhitespace).text) return "whitespace";
  return "rewritten";
}
