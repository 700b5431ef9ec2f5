import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { parse } from "csv-parse/sync";
import type { Doc, GoldSpan, Query } from "../core/types";
import { SeamlabError } from "../core/errors";

/**
 * Labelled retrieval sets: questions with the exact text that must be retrieved.
 *
 * Shapes (chosen by the columns/keys present):
 * - `answer-span`: `{question, answer_span[, doc]}` rows (CSV with a header, or JSONL). The answer text is
 *   located verbatim in the corpus once (in `doc` when given, matched by id, file name or file name without
 *   extension). When it occurs several times, the first occurrence wins (documents in corpus order, then
 *   lowest offset) and the row is counted as `ambiguous`.
 * - `chroma`: Chroma's `questions_df.csv` shape: `question`, `references` (a JSON list of
 *   `{content, start_index, end_index}`), `corpus_id` (a document, matched as above). The offsets are kept
 *   when `text.slice(start, end) === content`; otherwise the content is searched for and the occurrence
 *   nearest the given start is used (counted in `offsetsCorrected`).
 * - `squad`: SQuAD JSON (`data[].paragraphs[].{context, qas[].{question, answers[].{text, answer_start}}}`);
 *   each context becomes a document (`document_id` or `doc<N>` as id) and each answer a gold span. An
 *   `answer_start` that does not point at the answer text is corrected to the nearest occurrence.
 * Answer-span and SQuAD gold spans are trimmed of surrounding whitespace (a trailing space is not evidence).
 *
 * Malformed rows throw a `SeamlabError` naming the file, line and column, unless `skipMalformed` is set:
 * then they are skipped and counted.
 */
export type LabelledShape = "answer-span" | "chroma" | "squad";

export interface LabelledReport {
  file: string;
  shape: LabelledShape;
  rows: number;
  queries: number;
  skippedMalformed: number;
  /** the first few malformed-row messages (when skipped) */
  malformed: string[];
  /** answers / references that could not be placed in the corpus, by reason */
  notLocated: Record<string, number>;
  /** answer texts found more than once (the first occurrence was used) */
  ambiguous: number;
  /** given offsets that did not point at the text and were moved to the nearest occurrence */
  offsetsCorrected: number;
  /** how far the corrected offsets moved (new − given), as "shift: count" */
  offsetShifts: Record<string, number>;
}

export interface LabelledSet {
  queries: Query[];
  /** the documents (SQuAD brings its own; otherwise the corpus passed in) */
  docs: Doc[];
  report: LabelledReport;
}

export interface LabelledOptions {
  skipMalformed?: boolean;
}

class RowError extends Error {
  constructor(
    message: string,
    readonly column?: string,
  ) {
    super(message);
  }
}

/** Loads a labelled set from disk; `docs` is the corpus to locate answers in (not needed for SQuAD). */
export function loadLabelledSet(file: string, docs: readonly Doc[] = [], options: LabelledOptions = {}): LabelledSet {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new SeamlabError(`cannot read labelled set ${file}: check the path (--queries).`);
  }
  return parseLabelledSet(text, file, docs, options);
}

/** Parses a labelled set already read into memory; `file` names it in messages and picks the format by extension. */
export function parseLabelledSet(
  text: string,
  file: string,
  docs: readonly Doc[] = [],
  options: LabelledOptions = {},
): LabelledSet {
  if (text.trim() === "") throw new SeamlabError(`${file} is empty: a labelled set needs at least one question.`);
  const extension = extname(file).toLowerCase();
  if (extension === ".json") return parseSquad(text, file, options);
  const unreadable: string[] = [];
  const rows = extension === ".csv" ? readCsvRows(text, file) : readJsonlRows(text, file, options, unreadable);
  if (rows.length === 0 && unreadable.length > 0)
    throw new SeamlabError(`${file}: no line is a JSON object (first: ${unreadable[0]}).`);
  if (rows.length === 0) throw new SeamlabError(`${file} has a header but no rows: add at least one question.`);
  const first = rows[0].fields;
  const shape: LabelledShape = "references" in first ? "chroma" : "answer-span";
  const required = shape === "chroma" ? ["question", "references", "corpus_id"] : ["question", "answer_span"];
  for (const column of required) {
    if (!(column in first)) {
      throw new SeamlabError(
        `${file}:${extension === ".csv" ? 1 : rows[0].line}: missing column "${column}" (found ${Object.keys(first).join(", ") || "none"}). ` +
          `Expected ${required.join(", ")}.`,
      );
    }
  }
  const report = emptyReport(file, shape, rows.length + unreadable.length);
  report.skippedMalformed = unreadable.length;
  report.malformed.push(...unreadable.slice(0, 5));
  const queries: Query[] = [];
  const docsById = docIndex(docs);
  for (const row of rows) {
    try {
      const query =
        shape === "chroma"
          ? chromaQuery(row.fields, row.line, docsById, report)
          : answerSpanQuery(row.fields, row.line, docs, docsById, report);
      if (query) queries.push(query);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      const where = error.column ? `${file}:${row.line}, column "${error.column}"` : `${file}:${row.line}`;
      const message = `${where}: ${error.message}`;
      if (!options.skipMalformed) throw new SeamlabError(`${message} (or pass --skip-malformed to skip such rows).`);
      report.skippedMalformed++;
      if (report.malformed.length < 5) report.malformed.push(message);
    }
  }
  report.queries = queries.length;
  return { queries, docs: [...docs], report };
}

function emptyReport(file: string, shape: LabelledShape, rows: number): LabelledReport {
  return {
    file,
    shape,
    rows,
    queries: 0,
    skippedMalformed: 0,
    malformed: [],
    notLocated: {},
    ambiguous: 0,
    offsetsCorrected: 0,
    offsetShifts: {},
  };
}

interface Row {
  line: number;
  fields: Record<string, unknown>;
}

function readCsvRows(text: string, file: string): Row[] {
  try {
    const records = parse(text, { columns: true, info: true, skip_empty_lines: true, bom: true }) as {
      record: Record<string, string>;
      info: { lines: number };
    }[];
    return records.map((r) => ({ line: r.info.lines, fields: r.record }));
  } catch (error) {
    const e = error as { message?: string; lines?: number; column?: unknown };
    const column = typeof e.column === "string" || typeof e.column === "number" ? `, column ${String(e.column)}` : "";
    throw new SeamlabError(`${file}:${e.lines ?? "?"}${column}: malformed CSV: ${e.message ?? String(error)}`);
  }
}

/** The JSON object of each non-blank line; a line that is not one is an error, or with `skipMalformed` noted in `skipped`. */
function readJsonlRows(text: string, file: string, options: LabelledOptions, skipped: string[]): Row[] {
  const rows: Row[] = [];
  const malformed = (message: string) => {
    if (!options.skipMalformed) throw new SeamlabError(`${message} (or pass --skip-malformed to skip such lines).`);
    skipped.push(message);
  };
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const position = /position (\d+)/.exec(String((error as Error).message));
      const column = position ? `, column ${Number(position[1]) + 1}` : "";
      malformed(
        `${file}:${i + 1}${column}: not valid JSON (${(error as Error).message}); each line must be one JSON object`,
      );
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      malformed(`${file}:${i + 1}: each line must be a JSON object like {"question": ..., "answer_span": ...}`);
      return;
    }
    rows.push({ line: i + 1, fields: value as Record<string, unknown> });
  });
  return rows;
}

/** Maps ids, file names and file names without extension to documents (first one wins). */
function docIndex(docs: readonly Doc[]): Map<string, Doc> {
  const byKey = new Map<string, Doc>();
  const add = (key: string, doc: Doc) => {
    if (!byKey.has(key)) byKey.set(key, doc);
  };
  for (const doc of docs) add(doc.id, doc);
  for (const doc of docs) {
    const name = basename(doc.id);
    add(name, doc);
    add(name.slice(0, name.length - extname(name).length), doc);
  }
  return byKey;
}

function requireString(fields: Record<string, unknown>, column: string): string {
  const value = fields[column];
  if (typeof value !== "string" || value.trim() === "")
    throw new RowError(`"${column}" must be a non-empty string.`, column);
  return value;
}

function countReason(report: LabelledReport, reason: string): void {
  report.notLocated[reason] = (report.notLocated[reason] ?? 0) + 1;
}

function trimSpan(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return { start, end };
}

/** All start offsets of `needle` in `text`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

function nearest(candidates: number[], target: number): number {
  let best = candidates[0];
  for (const c of candidates) if (Math.abs(c - target) < Math.abs(best - target)) best = c;
  return best;
}

function recordShift(report: LabelledReport, shift: number): void {
  report.offsetsCorrected++;
  const key = String(shift);
  report.offsetShifts[key] = (report.offsetShifts[key] ?? 0) + 1;
}

function answerSpanQuery(
  fields: Record<string, unknown>,
  line: number,
  docs: readonly Doc[],
  docsById: Map<string, Doc>,
  report: LabelledReport,
): Query | undefined {
  const question = requireString(fields, "question");
  const answer = requireString(fields, "answer_span").trim();
  const docName = fields.doc ?? fields.corpus_id;
  let searchIn: readonly Doc[] = docs;
  if (typeof docName === "string" && docName !== "") {
    const doc = docsById.get(docName);
    if (!doc) {
      countReason(report, `unknown document "${docName}"`);
      return undefined;
    }
    searchIn = [doc];
  }
  const hits: GoldSpan[] = [];
  for (const doc of searchIn) {
    for (const at of occurrences(doc.text, answer)) hits.push({ doc: doc.id, start: at, end: at + answer.length });
  }
  if (hits.length === 0) {
    const lower = answer.toLowerCase();
    const squashed = answer.replace(/\s+/g, " ");
    if (searchIn.some((d) => d.text.toLowerCase().includes(lower))) countReason(report, "found only ignoring case");
    else if (searchIn.some((d) => d.text.replace(/\s+/g, " ").includes(squashed)))
      countReason(report, "found only after collapsing whitespace");
    else countReason(report, "not in the corpus");
    return undefined;
  }
  if (hits.length > 1) report.ambiguous++;
  return { id: `line${line}`, text: question, gold: [hits[0]] };
}

function chromaQuery(
  fields: Record<string, unknown>,
  line: number,
  docsById: Map<string, Doc>,
  report: LabelledReport,
): Query | undefined {
  const question = requireString(fields, "question");
  const corpusId = requireString(fields, "corpus_id");
  const raw = fields.references;
  let references: unknown = raw;
  if (typeof raw === "string") {
    try {
      references = JSON.parse(raw);
    } catch (error) {
      throw new RowError(
        `not valid JSON (${(error as Error).message}); expected a list of {content, start_index, end_index}.`,
        "references",
      );
    }
  }
  if (!Array.isArray(references) || references.length === 0) {
    throw new RowError(`must be a non-empty JSON list of {content, start_index, end_index}.`, "references");
  }
  const doc = docsById.get(corpusId);
  if (!doc) throw new RowError(`no document "${corpusId}" in the corpus (check --corpus).`, "corpus_id");
  const gold: GoldSpan[] = [];
  references.forEach((ref, i) => {
    const r = ref as { content?: unknown; start_index?: unknown; end_index?: unknown };
    const start = Number(r.start_index);
    const end = Number(r.end_index);
    if (typeof r.content !== "string" || !Number.isInteger(start) || !Number.isInteger(end)) {
      throw new RowError(
        `reference ${i + 1} needs a string "content" and whole-number "start_index", "end_index".`,
        "references",
      );
    }
    if (start < 0 || end <= start || end > doc.text.length) {
      throw new RowError(
        `reference ${i + 1} span [${start}, ${end}) is outside the text of "${corpusId}" (length ${doc.text.length}).`,
        "references",
      );
    }
    if (doc.text.slice(start, end) === r.content) {
      gold.push({ doc: doc.id, start, end });
      return;
    }
    const found = occurrences(doc.text, r.content);
    if (found.length === 0) {
      countReason(report, "reference content not in the document");
      return;
    }
    const at = nearest(found, start);
    recordShift(report, at - start);
    gold.push({ doc: doc.id, start: at, end: at + r.content.length });
  });
  if (gold.length === 0) return undefined;
  return { id: `line${line}`, text: question, gold };
}

function parseSquad(text: string, file: string, options: LabelledOptions): LabelledSet {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SeamlabError(
      `${file}: not valid JSON (${(error as Error).message}). Expected SQuAD format {"data": [...]}.`,
    );
  }
  const data = (json as { data?: unknown }).data;
  if (!Array.isArray(data))
    throw new SeamlabError(`${file}: missing "data" list. Expected SQuAD format {"data": [{"paragraphs": [...]}]}.`);
  const docs: Doc[] = [];
  const queries: Query[] = [];
  const report = emptyReport(file, "squad", 0);
  data.forEach((article, a) => {
    const paragraphs = (article as { paragraphs?: unknown }).paragraphs;
    if (!Array.isArray(paragraphs)) throw new SeamlabError(`${file}: data[${a}] has no "paragraphs" list.`);
    paragraphs.forEach((paragraph, p) => {
      const para = paragraph as { context?: unknown; document_id?: unknown; qas?: unknown };
      const where = `${file}: data[${a}].paragraphs[${p}]`;
      if (typeof para.context !== "string") throw new SeamlabError(`${where} has no "context" string.`);
      const id = para.document_id !== undefined ? String(para.document_id) : `doc${docs.length}`;
      const doc: Doc = { id, text: para.context, source: file };
      docs.push(doc);
      const qas = Array.isArray(para.qas) ? para.qas : [];
      qas.forEach((qa, q) => {
        report.rows++;
        const item = qa as { id?: unknown; question?: unknown; answers?: unknown };
        try {
          if (typeof item.question !== "string" || item.question.trim() === "")
            throw new RowError(`needs a "question" string.`, "question");
          if (!Array.isArray(item.answers) || item.answers.length === 0)
            throw new RowError(`needs a non-empty "answers" list.`, "answers");
          const gold: GoldSpan[] = [];
          for (const answer of item.answers as { text?: unknown; answer_start?: unknown }[]) {
            if (typeof answer.text !== "string" || !Number.isInteger(answer.answer_start)) {
              throw new RowError(`each answer needs "text" and a whole-number "answer_start".`, "answers");
            }
            const given = answer.answer_start as number;
            let start = given;
            if (doc.text.slice(given, given + answer.text.length) !== answer.text) {
              const found = occurrences(doc.text, answer.text);
              if (found.length === 0) {
                countReason(report, "answer text not in its context");
                continue;
              }
              start = nearest(found, given);
              recordShift(report, start - given);
            }
            const trimmed = trimSpan(doc.text, start, start + answer.text.length);
            if (trimmed.end > trimmed.start) gold.push({ doc: doc.id, ...trimmed });
          }
          if (gold.length > 0)
            queries.push({ id: item.id !== undefined ? String(item.id) : `${id}#${q}`, text: item.question, gold });
        } catch (error) {
          if (!(error instanceof RowError)) throw error;
          const message = `${where}.qas[${q}], field "${error.column}": ${error.message}`;
          if (!options.skipMalformed)
            throw new SeamlabError(`${message} (or pass --skip-malformed to skip such rows).`);
          report.skippedMalformed++;
          if (report.malformed.length < 5) report.malformed.push(message);
        }
      });
    });
  });
  report.queries = queries.length;
  return { queries, docs, report };
}
