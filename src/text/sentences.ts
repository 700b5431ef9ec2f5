import { pushTrimmed, type TextRegion } from "./paragraphs";

// V8's Intl.Segmenter gets quadratic on long inputs (measured on Node 20: 100k chars 0.1 s,
// 300k chars 3 s, the whole of Moby-Dick 40 s), so text is segmented in bounded windows.
/** Characters segmented at a time (see sentenceRegions). */
export const SEGMENT_WINDOW = 4096;

let cachedSegmenter: Intl.Segmenter | undefined;
function sentenceSegmenter(): Intl.Segmenter {
  if (!cachedSegmenter) cachedSegmenter = new Intl.Segmenter("en", { granularity: "sentence" });
  return cachedSegmenter;
}

/**
 * The sentences of `text[from, to)` (Unicode sentence boundaries via `Intl.Segmenter`), each trimmed of
 * surrounding whitespace; whitespace-only segments are dropped. Offsets refer to `text`.
 *
 * Segmentation runs over windows of a few thousand characters: within a window every segment but the
 * last is kept and the next window starts where that last segment began, so a boundary is only ever
 * decided with the text after it in view. A single "sentence" longer than a window is cut at the window
 * edge (such runs are tables or code, not prose). Linear in the text length.
 */
export function sentenceRegions(text: string, from = 0, to = text.length): TextRegion[] {
  const regions: TextRegion[] = [];
  const push = (start: number, end: number) => pushTrimmed(regions, text, start, end);
  const segmenter = sentenceSegmenter();
  let pos = from;
  while (pos < to) {
    const windowEnd = Math.min(to, pos + SEGMENT_WINDOW);
    const starts: number[] = [];
    for (const segment of segmenter.segment(text.slice(pos, windowEnd))) starts.push(pos + segment.index);
    if (windowEnd === to || starts.length === 1) {
      for (let i = 0; i < starts.length; i++) push(starts[i], i + 1 < starts.length ? starts[i + 1] : windowEnd);
      pos = windowEnd;
    } else {
      for (let i = 0; i + 1 < starts.length; i++) push(starts[i], starts[i + 1]);
      pos = starts[starts.length - 1];
    }
  }
  return regions;
}

/** The first sentence of `text[from, to)`, or undefined when the region is blank. */
export function firstSentence(text: string, from: number, to: number): TextRegion | undefined {
  // Only the head of the region matters; grow the probe until a sentence ends inside it.
  for (let probe = SEGMENT_WINDOW; ; probe *= 2) {
    const end = Math.min(to, from + probe);
    const regions = sentenceRegions(text, from, end);
    if (regions.length > 1 || end === to) return regions[0];
  }
}

/** The last sentence of `text[from, to)`, or undefined when the region is blank. */
export function lastSentence(text: string, from: number, to: number): TextRegion | undefined {
  for (let probe = SEGMENT_WINDOW; ; probe *= 2) {
    const start = Math.max(from, to - probe);
    const regions = sentenceRegions(text, start, to);
    // With more than one sentence in view, the last one began after the probe's (arbitrary) start.
    if (regions.length > 1 || start === from) return regions[regions.length - 1];
  }
}

/**
 * Sentences of a paragraph. Markdown wraps lines inside a paragraph, and Unicode segmentation ends a
 * sentence at every line feed, so line feeds are read as spaces (same length: offsets are unchanged).
 */
export function paragraphSentences(text: string, paragraph: TextRegion): TextRegion[] {
  const unwrapped = text.slice(paragraph.start, paragraph.end).replace(/\r?\n/g, (m) => " ".repeat(m.length));
  return sentenceRegions(unwrapped).map((r) => ({ start: paragraph.start + r.start, end: paragraph.start + r.end }));
}
