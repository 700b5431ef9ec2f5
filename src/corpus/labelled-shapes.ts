import type { Doc, GoldSpan, Query } from "../core/types";
import { countReason, occurrences, placeNear, requireString, RowError } from "./labelled-rows";
import type { LabelledReport } from "./types";

/** An `answer-span` row: the answer text located verbatim, in its `doc` when given (first occurrence wins). */
export function answerSpanQuery(
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
  const hits = searchIn.flatMap((doc) =>
    occurrences(doc.text, answer).map((at) => ({ doc: doc.id, start: at, end: at + answer.length })),
  );
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

/** A Chroma `questions_df.csv` row: references kept where their offsets hold, else moved to the nearest copy. */
export function chromaQuery(
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
    const at =
      doc.text.slice(start, end) === r.content
        ? start
        : placeNear(doc.text, r.content, start, report, "reference content not in the document");
    if (at !== undefined) gold.push({ doc: doc.id, start: at, end: at + r.content.length });
  });
  if (gold.length === 0) return undefined;
  return { id: `line${line}`, text: question, gold };
}
