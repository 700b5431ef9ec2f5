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
  const pushTrimmed = (start: number, end: number) => {
    while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
    while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
    if (end > start) regions.push({ start, end });
  };
  PARAGRAPH_BREAK.lastIndex = 0;
  for (let match = PARAGRAPH_BREAK.exec(text); match !== null; match = PARAGRAPH_BREAK.exec(text)) {
    pushTrimmed(from, match.index);
    from = match.index + match[0].length;
  }
  pushTrimmed(from, text.length);
  return regions;
}

/** True for the characters JavaScript's `\s` matches (checked by code unit, no regex per char). */
export function isWhitespaceCode(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Counts the characters of `text[start, end)` that are not whitespace. */
export function countNonWhitespace(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (!isWhitespaceCode(text.charCodeAt(i))) count++;
  return count;
}
