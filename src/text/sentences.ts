import { pushTrimmed, type TextRegion } from "./paragraphs";

// V8's Intl.Segmenter is quadratic on long inputs (Node 20: 100k chars 0.1 s, 300k 3 s), so text goes in windows.
export const SEGMENT_WINDOW = 4096;

let cachedSegmenter: Intl.Segmenter | undefined;
const sentenceSegmenter = () => (cachedSegmenter ??= new Intl.Segmenter("en", { granularity: "sentence" }));

/**
 * The sentences of `text[from, to)` (`Intl.Segmenter`), trimmed, blank ones dropped. The next window starts where a
 * window's last segment began, so a boundary is always decided with the text after it in view; a "sentence" longer
 * than a window (a table, code) is cut at its edge.
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
    for (let i = 0; i + 1 < starts.length; i++) push(starts[i], starts[i + 1]);
    const whole = windowEnd === to || starts.length === 1;
    if (whole) push(starts[starts.length - 1], windowEnd);
    pos = whole ? windowEnd : starts[starts.length - 1];
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
    // more than one in view: the last began after the probe's arbitrary start
    if (regions.length > 1 || start === from) return regions[regions.length - 1];
  }
}

/** Sentences of a paragraph, its line feeds read as spaces (Unicode ends a sentence at each; offsets unchanged). */
export function paragraphSentences(text: string, paragraph: TextRegion): TextRegion[] {
  const unwrapped = text.slice(paragraph.start, paragraph.end).replace(/\r?\n/g, (m) => " ".repeat(m.length));
  return sentenceRegions(unwrapped).map((r) => ({ start: paragraph.start + r.start, end: paragraph.start + r.end }));
}
