import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
import { findHeadings, LIST_ITEM_START, removeRanges, scanMarkdownLines, type MarkdownLine } from "../text/headings";
import type { TextRegion } from "../text/paragraphs";
import { paragraphSentences } from "../text/sentences";

/**
 * Header queries: a heading's text asks, the first sentences of the prose under it answer. Heading lines are removed
 * first, so a query never matches its own heading: split the returned documents, which the gold offsets refer to.
 */
/** `##` alone leaves books with one `##` title per file nearly without queries, most answered where no seam falls. */
export const DEFAULT_HEADING_LEVELS: readonly number[] = [2, 3];

/** Level 1 is a document's title, never a query. */
const LEVEL_RANGE = { min: 2, max: 6 };

/** "## and ###" for [2, 3]; "##, ### and ####" for [2, 3, 4]. */
export function headingMarks(levels: readonly number[] = DEFAULT_HEADING_LEVELS): string {
  const marks = [...levels].sort((a, b) => a - b).map((level) => "#".repeat(level));
  return marks.length === 1 ? marks[0] : `${marks.slice(0, -1).join(", ")} and ${marks[marks.length - 1]}`;
}

/** Heading levels from text ("2,3"), each 2 to 6, sorted, without repeats; `parameter` names the flag in errors. */
export function parseHeadingLevels(raw: string, parameter = "--heading-levels"): number[] {
  const parts = raw.split(",").map((part) => part.trim());
  const levels = parts.map(Number);
  const bad = parts.find(
    (part, i) => !/^\d+$/.test(part) || levels[i] < LEVEL_RANGE.min || levels[i] > LEVEL_RANGE.max,
  );
  if (bad !== undefined)
    throw new SeamlabError(
      `${parameter} ${raw}: "${bad}" is not a heading level from ${LEVEL_RANGE.min} to ${LEVEL_RANGE.max} (level 1 is ` +
        `a document's title); give a comma-separated list, e.g. ${parameter} ${DEFAULT_HEADING_LEVELS.join(",")}.`,
    );
  return [...new Set(levels)].sort((a, b) => a - b);
}

export interface HeaderQueryOptions {
  questionsOnly?: boolean;
  headingLevels?: readonly number[];
  sentences?: number; // of prose in the gold span (default 1)
}

export type HeaderQuerySet = ReturnType<typeof buildHeaderQueries>;

function firstProseParagraph(text: string, lines: MarkdownLine[], from: number): TextRegion | undefined {
  for (let i = from; i < lines.length; i++) {
    const kind = lines[i].kind;
    if (kind === "heading") return undefined;
    if (kind !== "text") continue;
    let last = i;
    // a paragraph runs over wrapped lines; a new list item starts a new one
    while (
      last + 1 < lines.length &&
      lines[last + 1].kind === "text" &&
      !LIST_ITEM_START.test(text.slice(lines[last + 1].start, lines[last + 1].end))
    )
      last++;
    return { start: lines[i].start, end: lines[last].end };
  }
  return undefined;
}

/** The queries, the corpus with heading lines removed (same ids and order: split these), and what was skipped. */
export function buildHeaderQueries(docs: Iterable<Doc>, options: HeaderQueryOptions = {}) {
  const levels = new Set(options.headingLevels ?? DEFAULT_HEADING_LEVELS);
  const sentenceCount = Math.max(1, options.sentences ?? 1);
  const skipped = { notQuestion: 0, emptyText: 0, noProse: 0, duplicate: 0 };
  let headingCount = 0; // of the chosen levels, before the `?` filter
  const strippedDocs: Doc[] = [];
  const candidates: Query[] = [];
  for (const doc of docs) {
    const lines = scanMarkdownLines(doc.text);
    const headings = findHeadings(doc.text, lines);
    const headingLines = headings.map((h) => ({ start: h.lineStart, end: h.lineNext }));
    const without = removeRanges(doc.text, headingLines);
    strippedDocs.push({ ...doc, text: without.text });
    let lineIndex = 0;
    for (const heading of headings) {
      while (lines[lineIndex].start !== heading.lineStart) lineIndex++;
      if (!levels.has(heading.level)) continue;
      headingCount++;
      if (options.questionsOnly && !heading.text.endsWith("?")) {
        skipped.notQuestion++;
        continue;
      }
      if (!/[\p{L}\p{N}]/u.test(heading.text)) {
        skipped.emptyText++;
        continue;
      }
      const paragraph = firstProseParagraph(doc.text, lines, lineIndex + 1);
      const sentences = paragraph ? paragraphSentences(doc.text, paragraph) : [];
      if (sentences.length === 0) {
        skipped.noProse++;
        continue;
      }
      const last = sentences[Math.min(sentenceCount, sentences.length) - 1];
      candidates.push({
        id: `${doc.id}#${heading.lineStart}`,
        // a copy, not a slice: a slice would keep every streamed document alive
        text: (" " + heading.text).slice(1),
        gold: [{ doc: doc.id, start: without.toNew(sentences[0].start), end: without.toNew(last.end) }],
      });
    }
  }
  const uses = new Map<string, number>();
  const key = (q: Query) => q.text.toLowerCase().replace(/\s+/g, " ");
  for (const q of candidates) uses.set(key(q), (uses.get(key(q)) ?? 0) + 1);
  const queries = candidates.filter((q) => uses.get(key(q)) === 1);
  skipped.duplicate = candidates.length - queries.length; // every heading whose text repeats
  return { docs: strippedDocs, queries, levels: [...levels].sort((a, b) => a - b), headings: headingCount, skipped };
}
