// Markdown sections and the blocks a splitter must not cut (code, tables, list items, FAQ pairs, speaker turns,
// paragraphs), line-based like `headings.ts`: exact offsets, not a rendering. Every block is whole lines (its last
// one before the newline); blank lines belong to none. On broken input: an unclosed fence runs to the end; a table
// (header + delimiter row, or >= 2 lines starting with `|`) may have ragged rows.
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

/** A heading and everything up to the next one (or the text before the first), its heading block first. */
export interface Section {
  start: number;
  end: number;
  /** the heading line `[start, end)`, before its newline */
  heading?: { level: number; text: string; start: number; end: number };
  blocks: Block[];
}

const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+\S/;
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

const isTableLine = (s: string): boolean => s.includes("|") && s.trim() !== "";

function blocksOf(text: string, lines: MarkdownLine[], turns: boolean): Block[] {
  const n = lines.length;
  const at = (k: number) => text.slice(lines[k].start, lines[k].end);
  const isText = (k: number) => k < n && (lines[k].kind === "text" || lines[k].kind === "markup");
  const headsTable = (k: number) =>
    isTableLine(at(k)) && k + 1 < n && at(k + 1).includes("-") && DELIMITER_ROW.test(at(k + 1));
  /** The last line of the fence opened at line k: its closing fence, or the end of the text when unclosed. */
  const fenceEnd = (k: number) => {
    let j = k + 1;
    while (j < n && lines[j].kind === "code") j++;
    return j < n && lines[j].kind === "fence" ? j : j - 1;
  };
  const blocks: Block[] = [];
  let i = 0;
  const push = (kind: BlockKind, last: number, extra?: Pick<Block, "headerEnd" | "speaker">) => {
    blocks.push({ kind, start: lines[i].start, end: lines[last].end, ...extra });
    i = last + 1;
  };
  while (i < n) {
    const line = lines[i];
    const s = at(i);
    if (line.kind === "blank") {
      i++;
      continue;
    }
    if (line.kind === "front-matter" || line.kind === "comment") {
      let j = i;
      while (j + 1 < n && lines[j + 1].kind === line.kind) j++;
      push(line.kind, j);
      continue;
    }
    if (line.kind === "heading" || line.kind === "fence") {
      push(line.kind === "fence" ? "code" : "heading", line.kind === "fence" ? fenceEnd(i) : i);
      continue;
    }
    const delimited = headsTable(i);
    if (delimited || (/^\s*\|/.test(s) && i + 1 < n && /^\s*\|/.test(at(i + 1)))) {
      let j = i + 1;
      while (isText(j + 1) && isTableLine(at(j + 1))) j++;
      push("table", j, { headerEnd: delimited ? lines[i + 1].end : line.end });
      continue;
    }
    if (QUESTION_LINE.test(s)) {
      // An A: line opening the next paragraph, else one within the Q: paragraph; the pair ends with its paragraph.
      let j = i + 1;
      while (j < n && lines[j].kind === "blank") j++;
      let answerAt = j < n && ANSWER_LINE.test(at(j)) ? j : -1;
      for (let k = i + 1; answerAt < 0 && k < n && lines[k].kind !== "blank"; k++)
        if (ANSWER_LINE.test(at(k))) answerAt = k;
      if (answerAt >= 0) {
        let end = answerAt;
        while (isText(end + 1) && !QUESTION_LINE.test(at(end + 1))) end++;
        push("faq-pair", end);
        continue;
      }
    }
    const speaker = turns ? SPEAKER_LINE.exec(s) : null;
    if (speaker) {
      // A turn runs until the next speaker line, heading, fence or the end; blank lines inside it are kept.
      let last = i;
      for (let j = i + 1; j < n; j++) {
        const kind = lines[j].kind;
        if (kind === "heading" || kind === "fence" || kind === "front-matter") break;
        if (kind !== "blank" && SPEAKER_LINE.test(at(j))) break;
        if (kind !== "blank") last = j;
      }
      push("turn", last, { speaker: speaker[1].trim() });
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
        const t = at(j + 1);
        if (next.kind === "blank") {
          j++;
          continue;
        }
        if (next.kind === "heading" || next.kind === "front-matter") break;
        const leading = /^\s*/.exec(t)![0].length;
        const blankBefore = lines[j].kind === "blank";
        const nested = LIST_ITEM.exec(t);
        if (nested && nested[1].length <= indent) break;
        if (leading <= indent && (blankBefore || next.kind === "fence")) break;
        j = next.kind === "fence" ? fenceEnd(j + 1) : j + 1; // an indented fence inside the item is taken whole
        last = j;
      }
      push("list-item", last);
      continue;
    }
    // A paragraph: text/markup lines up to a blank line or a line that starts another block.
    let j = i;
    while (isText(j + 1)) {
      const t = at(j + 1);
      if (LIST_ITEM.test(t) || QUESTION_LINE.test(t) || (turns && SPEAKER_LINE.test(t)) || headsTable(j + 1)) break;
      j++;
    }
    push("paragraph", j);
  }
  return blocks;
}

/**
 * The sections of a markdown text with their blocks, tiling it (a text with no heading is one section). `turns`:
 * recognise speaker turns (`Name: text`); off by default, since `Note: ...` in docs is not a turn.
 */
export function sectionsOf(text: string, { turns = false }: { turns?: boolean } = {}): Section[] {
  const lines = scanMarkdownLines(text);
  const blocks = blocksOf(text, lines, turns);
  const headings = findHeadings(text, lines);
  const starts = headings.map((h) => h.lineStart);
  const before = starts[0] === 0 ? 0 : 1; // the text before the first heading is a section of its own
  const bounds = before ? [0, ...starts] : starts;
  let b = 0;
  return bounds.map((start, s) => {
    const end = s + 1 < bounds.length ? bounds[s + 1] : text.length;
    const section: Section = { start, end, blocks: [] };
    const heading = headings[s - before];
    if (heading) {
      const lineEnd = text.indexOf("\n", start);
      const headingEnd = lineEnd < 0 || lineEnd > end ? end : lineEnd;
      section.heading = { level: heading.level, text: heading.text, start, end: headingEnd };
    }
    while (b < blocks.length && blocks[b].start < end) section.blocks.push(blocks[b++]);
    return section;
  });
}
