import type { Doc, GoldSpan, Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { emptyReport, placeNear, rejectRow, RowError } from "./labelled-rows";
import { trimSpan } from "../text/words";
import type { LabelledOptions, LabelledSet } from "./types";

/** A SQuAD JSON file: each context becomes a document, each answer a gold span (moved to its text if off). */
export function parseSquad(text: string, file: string, options: LabelledOptions): LabelledSet {
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
            const start =
              doc.text.slice(given, given + answer.text.length) === answer.text
                ? given
                : placeNear(doc.text, answer.text, given, report, "answer text not in its context");
            if (start === undefined) continue;
            const [trimmedStart, trimmedEnd] = trimSpan(doc.text, start, start + answer.text.length);
            if (trimmedEnd > trimmedStart) gold.push({ doc: doc.id, start: trimmedStart, end: trimmedEnd });
          }
          if (gold.length > 0)
            queries.push({ id: item.id !== undefined ? String(item.id) : `${id}#${q}`, text: item.question, gold });
        } catch (error) {
          if (!(error instanceof RowError)) throw error;
          rejectRow(report, `${where}.qas[${q}], field "${error.column}": ${error.message}`, options);
        }
      });
    });
  });
  report.queries = queries.length;
  return { queries, docs, report };
}
