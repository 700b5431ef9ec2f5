// A transparent rule-based classifier: every markdown section (and file) gets the type of the first rule that fires,
// after the `--types` overrides. `TYPE_RULES` is the documentation `seamlab types` prints.
import type { Doc } from "../core/types";
import { partitionPoint } from "../core/sorted";
import { sectionsOf, SPEAKER_LINE, type Section } from "../text/blocks";
import { isSourcePath } from "../text/code-units";
import { scanMarkdownLines } from "../text/headings";
import { compileOverrides, type TypeOverride } from "./type-overrides";
import { DOC_TYPES, type DocType } from "./types";

const RULES: [DocType, string][] = [
  ["code", "the file's extension is a source-code one (.ts .js .mjs .cjs .tsx .jsx .py .go .java .rs …)"],
  ["table", "the file is .csv/.tsv, or table rows make up >= 60% of the section's non-blank characters"],
  [
    "transcript",
    "the file is a transcript: >= 50% of its paragraphs open with `Speaker:` (<= 3 words), " +
      ">= 3 turns, >= 2 speakers, one speaking twice; all its sections are",
  ],
  ["faq", "the heading ends in `?` and the section is short (<= 1,500 chars), or Q:/A: pairs make up >= 50% of it"],
  [
    "reference",
    "fenced code, tables and parameter-list items (`- \\`name\\` …`) make up >= 20% of the section's characters",
  ],
  ["prose", "paragraphs and list items, mostly letters, make up >= 50% of the non-blank characters"],
  [
    "unknown",
    "none of the above (e.g. only rules, links or symbols); a heading with no content takes the next section's type",
  ],
];

export const TYPE_RULES: { type: DocType; rule: string }[] = RULES.map(([type, rule]) => ({ type, rule }));

export interface TypedSection {
  start: number;
  end: number;
  type: DocType;
  heading?: string;
  /** which rule decided: "override <origin>" or the type's rule name */
  reason: string;
  section: Section;
}

export interface TypedDoc {
  doc: string;
  /** the type holding most non-blank characters of the document */
  type: DocType;
  sections: TypedSection[];
}

const CSV = /\.(csv|tsv)$/i;
const PARAM_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*|__)?`[^`]+`/;

function nonBlank(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) count++;
  }
  return count;
}

const LETTER = /^\p{L}$/u;

/** Letters of `text[start, end)` counted in place: matching `/\p{L}/gu` cost 10.5 of 54 s CPU on a 100 MB corpus. */
export function countLetters(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if ((c | 32) >= 97 && (c | 32) <= 122) count++;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        if (LETTER.test(text.slice(i, i + 2))) count++;
        i++;
        continue;
      }
    }
    if (LETTER.test(text[i])) count++;
  }
  return count;
}

/** Paragraphs opening with a `Speaker:` label of at most three words: see TYPE_RULES. */
function isTranscript(text: string): boolean {
  let paragraphs = 0;
  let turns = 0;
  const speakers = new Map<string, number>();
  let previous = "blank";
  for (const line of scanMarkdownLines(text)) {
    if (line.kind === "text" && previous !== "text") {
      paragraphs++;
      const m = SPEAKER_LINE.exec(text.slice(line.start, line.end));
      if (m && m[1].trim().split(/\s+/).length <= 3) {
        turns++;
        const name = m[1].trim().toLowerCase();
        speakers.set(name, (speakers.get(name) ?? 0) + 1);
      }
    }
    previous = line.kind;
  }
  return turns >= 3 && speakers.size >= 2 && Math.max(0, ...speakers.values()) >= 2 && turns / paragraphs >= 0.5;
}

/** By the non-blank characters of each kind of block; undefined for a heading with no content. */
function ruleType(text: string, section: Section): DocType | undefined {
  const f = { chars: 0, table: 0, code: 0, params: 0, faq: 0, prose: 0, proseLetters: 0 };
  for (const block of section.blocks) {
    if (block.kind === "heading") continue;
    const c = nonBlank(text, block.start, block.end);
    f.chars += c;
    if (block.kind === "table") f.table += c;
    else if (block.kind === "code") f.code += c;
    else if (block.kind === "faq-pair") f.faq += c;
    else if (block.kind === "list-item" && PARAM_ITEM.test(text.slice(block.start, block.end))) f.params += c;
    else if (block.kind === "paragraph" || block.kind === "list-item" || block.kind === "turn") {
      f.prose += c;
      f.proseLetters += countLetters(text, block.start, block.end);
    }
  }
  if (f.chars === 0) return undefined;
  if (f.table / f.chars >= 0.6) return "table";
  const question = section.heading?.text.trim().endsWith("?") ?? false;
  if ((question && section.end - section.start <= 1500) || f.faq / f.chars >= 0.5) return "faq";
  if ((f.code + f.table + f.params) / f.chars >= 0.2) return "reference";
  if (f.prose / f.chars >= 0.5 && f.proseLetters / Math.max(1, f.prose) >= 0.5) return "prose";
  return "unknown";
}

export function classifyDoc(doc: Doc, overrides: readonly TypeOverride[] = []): TypedDoc {
  const overrideOf = compileOverrides(overrides);
  const path = doc.source ?? doc.id;
  const whole = (type: DocType, reason: string): TypedDoc => ({
    doc: doc.id,
    type,
    sections: [
      { start: 0, end: doc.text.length, type, reason, section: { start: 0, end: doc.text.length, blocks: [] } },
    ],
  });
  const fileOverride = overrides.find((o) => o.glob !== undefined && overrideOf(doc.id) === o);
  if (fileOverride && (fileOverride.type === "code" || fileOverride.type === "table")) {
    return whole(fileOverride.type, `override ${fileOverride.origin ?? fileOverride.glob}`);
  }
  if (!fileOverride && isSourcePath(path)) return whole("code", "code: source-code extension");
  if (!fileOverride && CSV.test(path)) return whole("table", "table: .csv/.tsv file");
  const transcript = fileOverride ? fileOverride.type === "transcript" : isTranscript(doc.text);
  const sections = sectionsOf(doc.text, { turns: transcript });
  const typed: TypedSection[] = [];
  const pending: boolean[] = [];
  for (const section of sections) {
    const heading = section.heading?.text;
    const override = overrideOf(doc.id, heading);
    let type: DocType | undefined;
    let reason: string;
    if (override) {
      type = override.type;
      reason = `override ${override.origin ?? override.glob ?? override.heading}`;
    } else if (transcript) {
      type = "transcript";
      reason = "transcript: most paragraphs open with a speaker";
    } else {
      type = ruleType(doc.text, section);
      reason = type ? `${type}: built-in rule` : "empty: takes the next section's type";
    }
    typed.push({ start: section.start, end: section.end, type: type ?? "unknown", heading, reason, section });
    pending.push(type === undefined);
  }
  // a heading with no content takes the next section's type (or the last one's with content, at the end)
  let next = typed.filter((_, i) => !pending[i]).pop()?.type ?? "unknown";
  for (let i = typed.length - 1; i >= 0; i--) {
    if (pending[i]) typed[i].type = next;
    else next = typed[i].type;
  }
  const byType = new Map<DocType, number>();
  for (const s of typed) byType.set(s.type, (byType.get(s.type) ?? 0) + nonBlank(doc.text, s.start, s.end));
  let best: DocType = typed[0]?.type ?? "unknown";
  for (const type of DOC_TYPES) if ((byType.get(type) ?? 0) > (byType.get(best) ?? 0)) best = type;
  return { doc: doc.id, type: best, sections: typed };
}

export function typeAt(typed: TypedDoc, offset: number): DocType {
  const sections = typed.sections;
  const lo = Math.max(0, partitionPoint(sections.length, (i) => sections[i].start <= offset) - 1);
  return sections[lo]?.type ?? "unknown";
}

export type TypeBreakdownRow = ReturnType<typeof typeBreakdown>[number];

/** `docs`: documents of this main type. */
export function typeBreakdown(typedDocs: readonly TypedDoc[]) {
  const rows = new Map(DOC_TYPES.map((type) => [type, { type, docs: 0, sections: 0, chars: 0, charsPct: 0 }]));
  let total = 0;
  for (const typed of typedDocs) {
    rows.get(typed.type)!.docs++;
    for (const s of typed.sections) {
      const row = rows.get(s.type)!;
      row.sections++;
      row.chars += s.end - s.start;
      total += s.end - s.start;
    }
  }
  for (const row of rows.values()) row.charsPct = total === 0 ? 0 : (100 * row.chars) / total;
  return [...rows.values()].filter((r) => r.chars > 0 || r.docs > 0);
}
