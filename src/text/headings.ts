// Which markdown lines are ATX headings, inside fences, front matter or HTML comments (a `## ` there is no heading),
// or prose: line-based on purpose, right about headings and fences without rendering. Setext headings are not read.
import { partitionPoint } from "../core/sorted";

export type MarkdownLineKind =
  | "blank"
  | "heading"
  | "fence" // an opening or closing fence line
  | "code" // inside a fenced block
  | "front-matter"
  | "comment" // inside or on an HTML comment
  | "markup" // a line that is not prose: shortcode, HTML tag, table row, rule, image, link definition
  | "text";

/** A line that opens a list item (`- `, `* `, `+ `, `1. `, `1) `): in prose it starts a new paragraph. */
export const LIST_ITEM_START = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;

export interface MarkdownLine {
  kind: MarkdownLineKind;
  start: number;
  /** before the line's "\n" */
  end: number;
  /** after the line's "\n" (== end on the last line without one) */
  next: number;
}

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
/** Not prose: Hugo/Liquid shortcodes, HTML, table rows, rules, images, link definitions, `> [!NOTE]` or `>`. */
const MARKUP = [
  /^\s*(?:(?:\{\{[<%].*?[%>]\}\}|\{%.*?%\}|\{\{.*?\}\})\s*)+$/,
  /^\s*<\/?[A-Za-z!][^>]*>?\s*$|^\s*<[A-Za-z][^>]*>.*<\/[A-Za-z][^>]*>\s*$/,
  /^\s*\|/,
  /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/,
  /^\s*!\[[^\]]*\]\([^)]*\)\s*$/,
  /^ {0,3}\[[^\]]+\]:\s*\S+/,
  /^\s*>\s*(?:\[![A-Za-z]+\])?\s*$/,
];

export function scanMarkdownLines(text: string): MarkdownLine[] {
  const lines: MarkdownLine[] = [];
  let fence: { char: string; length: number } | null = null;
  let inComment = false;
  let frontMatterClose: string | null = null;
  let position = 0;
  let lineNumber = 0;
  while (position < text.length) {
    const newline = text.indexOf("\n", position);
    const end = newline === -1 ? text.length : newline;
    const next = newline === -1 ? text.length : newline + 1;
    const line = text.slice(position, end).replace(/\r$/, "");
    let kind: MarkdownLineKind;
    if (lineNumber === 0 && (line === "---" || line === "+++")) {
      frontMatterClose = line;
      kind = "front-matter";
    } else if (frontMatterClose !== null) {
      if (line === frontMatterClose || (frontMatterClose === "---" && line === "...")) frontMatterClose = null;
      kind = "front-matter";
    } else if (fence !== null) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      kind = close && close[1][0] === fence.char && close[1].length >= fence.length ? "fence" : "code";
      if (kind === "fence") fence = null;
    } else if (inComment) {
      if (line.includes("-->")) inComment = false;
      kind = "comment";
    } else if (line.trim() === "") {
      kind = "blank";
    } else {
      const open = FENCE_OPEN.exec(line);
      if (open && !(open[1][0] === "`" && line.slice(open.index + open[1].length).includes("`"))) {
        fence = { char: open[1][0], length: open[1].length };
        kind = "fence";
      } else if (ATX_HEADING.test(line)) {
        kind = "heading";
      } else if (/^\s*<!--/.test(line)) {
        inComment = !line.includes("-->");
        kind = "comment";
      } else {
        kind = MARKUP.some((pattern) => pattern.test(line)) ? "markup" : "text";
      }
    }
    lines.push({ kind, start: position, end, next });
    position = next;
    lineNumber++;
  }
  return lines;
}

/** Removes attribute blocks, shortcodes, HTML tags, link targets and emphasis/code markers from a heading. */
export function cleanHeadingText(raw: string): string {
  return raw
    .replace(/\{\{[<%].*?[%>]\}\}|\{%.*?%\}|\{\{.*?\}\}/g, " ")
    .replace(/\s*\{[#.][^}]*\}\s*$/, "") // Hugo/kramdown `{#anchor}`
    .replace(/<[^>]+>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*_]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The ATX headings of a markdown text (outside fences, front matter and comments), in order: each one's text with
 * attributes, shortcodes, links and emphasis markup taken out, and its line `[lineStart, lineNext)` with its newline.
 */
export function findHeadings(text: string, lines: MarkdownLine[] = scanMarkdownLines(text)) {
  const headings: { level: number; text: string; lineStart: number; lineNext: number }[] = [];
  for (const line of lines) {
    if (line.kind !== "heading") continue;
    const match = ATX_HEADING.exec(text.slice(line.start, line.end).replace(/\r$/, ""));
    if (match === null) continue;
    const heading = cleanHeadingText(match[2] ?? "");
    headings.push({ level: match[1].length, text: heading, lineStart: line.start, lineNext: line.next });
  }
  return headings;
}

/** Cuts sorted, disjoint half-open ranges out of a text; `toNew` maps an offset outside them to the result's. */
export function removeRanges(text: string, ranges: readonly { start: number; end: number }[]) {
  const pieces: string[] = [];
  const removedBefore: number[] = [];
  let position = 0;
  let removed = 0;
  for (const range of ranges) {
    pieces.push(text.slice(position, range.start));
    removed += range.end - range.start;
    removedBefore.push(removed);
    position = range.end;
  }
  pieces.push(text.slice(position));
  return {
    text: pieces.join(""),
    toNew(offset: number): number {
      const found = partitionPoint(ranges.length, (i) => ranges[i].end <= offset) - 1;
      return offset - (found === -1 ? 0 : removedBefore[found]);
    },
  };
}
