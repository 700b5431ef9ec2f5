/**
 * Two corpora the project has never used, built from the Apache-2.0 markdown docs that `@mastra/core` ships in
 * node_modules (dist/docs/references), for checking issue 30's "Done when" as a new user would
 * (scripts/unseen-corpora.ts writes them; docs/validation-unseen.md says what was found):
 *
 * - book: each `docs-*.md` guide is one chapter. The shared two-line `>` preamble every page opens with is dropped,
 *   the page's `# Title` becomes a `##` at the chapter's first character, and every heading below moves down one
 *   level (`##` to `###`, ... capped at `######`); fenced code is left as it is.
 * - faq: the `reference-*` and `integrations-*` pages regrouped as FAQ pages, one file per area (the name's second
 *   word). Each page becomes a `## Title` with a `### What is Title?` question answered by its first prose
 *   paragraph, and each of its `##` sections a `### How does Section work in Title?` question answered by the
 *   section's first prose paragraph. The question wording is a template (synthetic); every answer is the docs'
 *   own text, cut to at most three sentences. Sections with no prose paragraph give no question.
 *
 * Pure and deterministic: the same files in give the same documents out (files sorted by name, no randomness).
 */
import type { Doc } from "../src/core/types";

/** One source page: its file name (no folder) and its text. */
export interface SourcePage {
  name: string;
  text: string;
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/** The page without the blockquote lines (and blank lines) it opens with. */
function dropPreamble(text: string): string {
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length && (lines[i].startsWith(">") || lines[i].trim() === "")) i++;
  return lines.slice(i).join("\n");
}

/** Every heading outside fenced code moved down one level; the first `# Title` becomes `## Title`. */
export function bookChapter(text: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const line of dropPreamble(text).split("\n")) {
    if (FENCE.test(line)) inFence = !inFence;
    const m = inFence ? null : HEADING.exec(line);
    if (m && !FENCE.test(line)) out.push(`${"#".repeat(Math.min(6, m[1].length + 1))} ${m[2]}`);
    else out.push(line);
  }
  return out.join("\n");
}

/** The book: one chapter per `docs-*.md` page, in file-name order, ids `NNN-name.md`. */
export function buildBook(pages: readonly SourcePage[]): Doc[] {
  const chapters = pages.filter((p) => /^docs-.*\.md$/.test(p.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  return chapters.map((page, i) => ({
    id: `${String(i + 1).padStart(3, "0")}-${page.name.replace(/^docs-/, "")}`,
    text: bookChapter(page.text),
  }));
}

/** A page cut into its title and its `##` sections, each with the prose paragraphs outside fenced code. */
interface PageOutline {
  title: string;
  intro: string[];
  sections: { heading: string; paragraphs: string[] }[];
}

function isProse(paragraph: string): boolean {
  const first = paragraph.trimStart();
  return first.length >= 40 && !/^([|<>!#*+-]|\d+\.|:::|import |export )/.test(first);
}

export function outlinePage(text: string): PageOutline {
  const outline: PageOutline = { title: "", intro: [], sections: [] };
  let target = outline.intro;
  let inFence = false;
  let paragraph: string[] = [];
  const flush = () => {
    const joined = paragraph.join(" ").replace(/\s+/g, " ").trim();
    if (joined && isProse(joined)) target.push(joined);
    paragraph = [];
  };
  for (const line of dropPreamble(text).split("\n")) {
    if (FENCE.test(line)) {
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const m = HEADING.exec(line);
    if (m) {
      flush();
      if (m[1].length === 1 && !outline.title) outline.title = m[2];
      else if (m[1].length === 2) {
        const section = { heading: m[2], paragraphs: [] as string[] };
        outline.sections.push(section);
        target = section.paragraphs;
      }
      continue;
    }
    if (line.trim() === "") flush();
    else paragraph.push(line.trim());
  }
  flush();
  return outline;
}

/** At most `n` sentences of `paragraph` (Intl.Segmenter, as seamlab's header queries cut sentences). */
export function firstSentences(paragraph: string, n = 3): string {
  const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });
  const sentences = [...segmenter.segment(paragraph)].map((s) => s.segment);
  return sentences.slice(0, n).join("").trim();
}

const stripMarkup = (heading: string) => heading.replace(/`/g, "").replace(/\s+/g, " ").trim();

/** The FAQ site: one file per area of the reference and integration pages, `faq-AREA.md`. */
export function buildFaq(pages: readonly SourcePage[]): Doc[] {
  const byArea = new Map<string, string[]>();
  const sorted = pages
    .filter((p) => /^(reference|integrations)-[^-]+-.*\.md$/.test(p.name))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const page of sorted) {
    const area = page.name.split("-").slice(0, 2).join("-");
    const outline = outlinePage(page.text);
    const title = stripMarkup(outline.title || page.name.replace(/\.md$/, ""));
    const blocks: string[] = [];
    if (outline.intro.length > 0) blocks.push(`### What is ${title}?\n\n${firstSentences(outline.intro[0])}`);
    for (const section of outline.sections) {
      if (section.paragraphs.length === 0) continue;
      const heading = stripMarkup(section.heading);
      blocks.push(`### How does ${heading} work in ${title}?\n\n${firstSentences(section.paragraphs[0])}`);
    }
    if (blocks.length === 0) continue;
    const list = byArea.get(area) ?? [];
    list.push(`## ${title}\n\n${blocks.join("\n\n")}`);
    byArea.set(area, list);
  }
  return [...byArea.entries()].map(([area, sections]) => ({
    id: `faq-${area}.md`,
    text: `# ${area.replace("-", " ")} FAQ\n\n${sections.join("\n\n")}\n`,
  }));
}
