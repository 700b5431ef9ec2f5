/**
 * Markdown block structure for structural damage and the `structure` splitter: sections (text between ATX
 * headings) and the blocks inside them — fenced code, tables, list items, FAQ question/answer pairs, speaker turns,
 * paragraphs. Line-based, like `headings.ts`, on purpose: it needs exact offsets of units a splitter must not cut,
 * not a rendering.
 *
 * Defined behaviour on broken input (CommonMark's where it has one):
 * - an unclosed fence runs to the end of the document (one code block);
 * - a table's rows may have any number of cells (ragged rows are rows); a table is a run of non-blank lines
 *   containing `|` that starts with a header row followed by a delimiter row, or a run of >= 2 lines starting
 *   with `|` (no delimiter row: then the first line is taken as the header);
 * - a heading with no content is a section of its own, with no blocks;
 * - text that is none of the above is a paragraph; blank lines belong to no block.
 * Every block is line-aligned: `[start, end)` runs from the start of its first line to the end of its last
 * line (before the newline).
 */
import { findHeadings, scanMarkdownLines, type MarkdownLine } from "./headings";

export type BlockKind =
  | "heading"
  | "code"
  | "table"
  | "list-item"
  | "faq-pair" // a `Q:` line and the `A:` paragraph after it
  | "turn" // a speaker turn (`Name: ...` until the next speaker), only when turns are asked for
  | "paragraph"
  | "front-matter"
  | "comment";

export interface Block {
  kind: BlockKind;
  start: number;
  end: number;
  /** Tables: end of the header row (and delimiter row when there is one), before its newline. */
  headerEnd?: number;
  /** Speaker turns: the speaker's label. */
  speaker?: string;
}

export interface SectionHeading {
  level: number;
  text: string;
  /** the heading line `[start, end)`, before its newline */
  start: number;
  end: number;
}

/** A markdown section: a heading and everything up to the next heading (or the text before the first heading). */
export interface Section {
  start: number;
  end: number;
  heading?: SectionHeading;
  /** Blocks inside the section, the heading block first when there is a heading. */
  blocks: Block[];
}

export interface BlockOptions {
  /** Recognise speaker turns (`Name: text`); off by default, since `Note: ...` in docs is not a turn. */
  turns?: boolean;
}

export const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+\S/;
const DELIMITER_ROW = /^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)*\|?\s*$/;
const QUESTION_LINE = /^\s*(?:\*\*|__)?(?:Q|Question)\s*\d*\s*[:.)]/i;
const ANSWER_LINE = /^\s*(?:\*\*|__)?(?:A|Answer)\s*\d*\s*[:.)]/i;
const TIMESTAMP = /(?:\[?\(?\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?\)?\]?\s*)?/u; // [00:01:02] or (1:02.5)
const EMPHASIS = /(?:\*\*|__)?/u;
const SPEAKER_NAME = /([\p{Lu}][\p{L}\p{N} .'_-]{0,39}?)(?:\s*\([^)]{1,30}\))?/u; // NAME or NAME (role)
/** `Name:`, `**Name:**`, `[00:01:02] Name:`, `NAME (role):`: a label of at most 40 chars, then text. */
export const SPEAKER_LINE = new RegExp(
  `^\\s*${TIMESTAMP.source}${EMPHASIS.source}${SPEAKER_NAME.source}${EMPHASIS.source}\\s*:${EMPHASIS.source}\\s+\\S`,
  "u",
);

function lineText(text: string, line: MarkdownLine): string {
  return text.slice(line.start, line.end);
}

function isTableLine(s: string): boolean {
  return s.includes("|") && s.trim() !== "";
}

/** The blocks of `text[from, to)` given its scanned lines (lines must be those of the whole text). */
export function blocksOf(text: string, lines: MarkdownLine[], options: BlockOptions = {}): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  const n = lines.length;
  while (i < n) {
    const line = lines[i];
    const s = lineText(text, line);
    if (line.kind === "blank") {
      i++;
      continue;
    }
    if (line.kind === "front-matter") {
      let j = i;
      while (j + 1 < n && lines[j + 1].kind === "front-matter") j++;
      blocks.push({ kind: "front-matter", start: line.start, end: lines[j].end });
      i = j + 1;
      continue;
    }
    if (line.kind === "heading") {
      blocks.push({ kind: "heading", start: line.start, end: line.end });
      i++;
      continue;
    }
    if (line.kind === "fence") {
      // An opening fence: the block runs to the closing fence, or to the end of the text when unclosed.
      let j = i + 1;
      while (j < n && lines[j].kind === "code") j++;
      const last = j < n && lines[j].kind === "fence" ? j : j - 1;
      blocks.push({ kind: "code", start: line.start, end: lines[last].end });
      i = last + 1;
      continue;
    }
    if (line.kind === "comment") {
      let j = i;
      while (j + 1 < n && lines[j + 1].kind === "comment") j++;
      blocks.push({ kind: "comment", start: line.start, end: lines[j].end });
      i = j + 1;
      continue;
    }
    // Tables: header + delimiter row, or >= 2 lines starting with "|".
    const nextText = i + 1 < n ? lineText(text, lines[i + 1]) : "";
    const delimited = isTableLine(s) && i + 1 < n && nextText.includes("-") && DELIMITER_ROW.test(nextText);
    const piped = /^\s*\|/.test(s) && i + 1 < n && /^\s*\|/.test(nextText);
    if (delimited || piped) {
      let j = i + 1;
      while (j + 1 < n && (lines[j + 1].kind === "text" || lines[j + 1].kind === "markup")) {
        if (!isTableLine(lineText(text, lines[j + 1]))) break;
        j++;
      }
      blocks.push({
        kind: "table",
        start: line.start,
        end: lines[j].end,
        headerEnd: delimited ? lines[i + 1].end : line.end,
      });
      i = j + 1;
      continue;
    }
    if (QUESTION_LINE.test(s)) {
      // Q: line(s), then an A: line within the same or the next paragraph; the pair ends with the A: paragraph.
      let j = i + 1;
      while (j < n && lines[j].kind === "blank") j++;
      let answerAt = -1;
      for (let k = i + 1; k < n && k <= j; k++)
        if (lines[k].kind !== "blank" && ANSWER_LINE.test(lineText(text, lines[k]))) answerAt = k;
      if (answerAt < 0) {
        for (let k = i + 1; k < n && lines[k].kind !== "blank"; k++) {
          if (ANSWER_LINE.test(lineText(text, lines[k]))) {
            answerAt = k;
            break;
          }
        }
      }
      if (answerAt >= 0) {
        let end = answerAt;
        while (end + 1 < n && (lines[end + 1].kind === "text" || lines[end + 1].kind === "markup")) {
          if (QUESTION_LINE.test(lineText(text, lines[end + 1]))) break;
          end++;
        }
        blocks.push({ kind: "faq-pair", start: line.start, end: lines[end].end });
        i = end + 1;
        continue;
      }
    }
    const speaker = options.turns ? SPEAKER_LINE.exec(s) : null;
    if (speaker) {
      // A turn runs until the next speaker line, heading, fence or the end; blank lines inside it are kept.
      let j = i;
      let last = i;
      while (j + 1 < n) {
        const next = lines[j + 1];
        if (next.kind === "heading" || next.kind === "fence" || next.kind === "front-matter") break;
        if (next.kind !== "blank" && SPEAKER_LINE.test(lineText(text, next))) break;
        j++;
        if (next.kind !== "blank") last = j;
      }
      blocks.push({ kind: "turn", start: line.start, end: lines[last].end, speaker: speaker[1].trim() });
      i = last + 1;
      continue;
    }
    const item = LIST_ITEM.exec(s);
    if (item) {
      // An item runs over wrapped and indented lines, and over blank lines when the next line is indented
      // deeper than the marker (a continuation paragraph or a nested list).
      const indent = item[1].length;
      let j = i;
      let last = i;
      while (j + 1 < n) {
        const next = lines[j + 1];
        const t = lineText(text, next);
        if (next.kind === "blank") {
          j++;
          continue;
        }
        if (next.kind === "heading" || next.kind === "front-matter") break;
        const leading = /^\s*/.exec(t)![0].length;
        const blankBefore = lines[j].kind === "blank";
        const nested = LIST_ITEM.exec(t);
        if (nested && nested[1].length <= indent) break;
        if (blankBefore && leading <= indent) break;
        if (!blankBefore && next.kind === "fence" && leading <= indent) break;
        if (next.kind === "fence") {
          // an indented fence inside the item: take it whole
          let k = j + 2;
          while (k < n && lines[k].kind === "code") k++;
          j = k < n && lines[k].kind === "fence" ? k : k - 1;
          last = j;
          continue;
        }
        j++;
        last = j;
      }
      blocks.push({ kind: "list-item", start: line.start, end: lines[last].end });
      i = last + 1;
      continue;
    }
    // A paragraph: text/markup lines up to a blank line or a line that starts another block.
    let j = i;
    while (j + 1 < n) {
      const next = lines[j + 1];
      if (next.kind !== "text" && next.kind !== "markup") break;
      const t = lineText(text, next);
      if (LIST_ITEM.test(t) || QUESTION_LINE.test(t) || (options.turns && SPEAKER_LINE.test(t))) break;
      if (
        isTableLine(t) &&
        j + 2 < n &&
        DELIMITER_ROW.test(lineText(text, lines[j + 2])) &&
        lineText(text, lines[j + 2]).includes("-")
      )
        break;
      j++;
    }
    blocks.push({ kind: "paragraph", start: line.start, end: lines[j].end });
    i = j + 1;
  }
  return blocks;
}

/**
 * The sections of a markdown text with their blocks. Sections tile the text: the first starts at 0, each ends
 * where the next begins, the last ends at `text.length`. A text with no heading is one section.
 */
export function sectionsOf(text: string, options: BlockOptions = {}): Section[] {
  const lines = scanMarkdownLines(text);
  const blocks = blocksOf(text, lines, options);
  const headings = findHeadings(text, lines);
  const sections: Section[] = [];
  const starts = headings.map((h) => h.lineStart);
  const bounds = starts.length > 0 && starts[0] === 0 ? [...starts] : [0, ...starts];
  let b = 0;
  let h = 0;
  for (let s = 0; s < bounds.length; s++) {
    const start = bounds[s];
    const end = s + 1 < bounds.length ? bounds[s + 1] : text.length;
    const section: Section = { start, end, blocks: [] };
    if (h < headings.length && headings[h].lineStart === start) {
      const heading = headings[h++];
      const lineEnd = text.indexOf("\n", start);
      section.heading = {
        level: heading.level,
        text: heading.text,
        start,
        end: lineEnd < 0 || lineEnd > end ? end : lineEnd,
      };
    }
    while (b < blocks.length && blocks[b].start < end) section.blocks.push(blocks[b++]);
    sections.push(section);
  }
  if (sections.length === 0) sections.push({ start: 0, end: text.length, blocks: [] });
  return sections;
}
