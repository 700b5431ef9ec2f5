import { isWhitespaceCode } from "./whitespace";

/** A half-open `[start, end)` region of a text (UTF-16 offsets). */
export interface TextRegion {
  start: number;
  end: number;
}

// A paragraph break is a line break followed by at least one blank (whitespace-only) line:
// the same "\n\n" boundary LangChain's default separators split on first.
const PARAGRAPH_BREAK = /\n(?:[ \t\f\v\u00a0]*\n)+/g;

/**
 * The paragraphs of `text`: regions separated by blank lines, trimmed of surrounding whitespace,
 * whitespace-only paragraphs dropped. Linear in the text length.
 */
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
  while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
  while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
  if (end > start) regions.push({ start, end });
}

/** Counts the characters of `text[start, end)` that are not whitespace. */
export function countNonWhitespace(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (!isWhitespaceCode(text.charCodeAt(i))) count++;
  return count;
}
