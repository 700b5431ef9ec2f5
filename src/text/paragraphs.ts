import { isWhitespaceCode } from "./whitespace";
import { trimSpan } from "./words";

/** A half-open `[start, end)` region of a text (UTF-16 offsets). */
export interface TextRegion {
  start: number;
  end: number;
}

// A line break then blank (whitespace-only) lines: the "\n\n" LangChain's default separators split on first.
const PARAGRAPH_BREAK = /\n(?:[ \t\f\v\u00a0]*\n)+/g;

/** The paragraphs of `text` (regions between blank lines), trimmed, whitespace-only ones dropped. */
export function paragraphRegions(text: string): TextRegion[] {
  const regions: TextRegion[] = [];
  let from = 0;
  PARAGRAPH_BREAK.lastIndex = 0;
  for (let match = PARAGRAPH_BREAK.exec(text); match !== null; match = PARAGRAPH_BREAK.exec(text)) {
    pushTrimmed(regions, text, from, match.index);
    from = match.index + match[0].length;
  }
  pushTrimmed(regions, text, from, text.length);
  return regions;
}

/** Adds `text[start, end)` trimmed of surrounding whitespace to `regions`, unless nothing is left. */
export function pushTrimmed(regions: TextRegion[], text: string, start: number, end: number): void {
  const [from, to] = trimSpan(text, start, end);
  if (to > from) regions.push({ start: from, end: to });
}

export function countNonWhitespace(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (!isWhitespaceCode(text.charCodeAt(i))) count++;
  return count;
}
