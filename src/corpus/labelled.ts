import { extname } from "node:path";
import type { Doc, Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { docIndex, emptyReport, readCsvRows, readJsonlRows, rejectRow, RowError } from "./labelled-rows";
import { answerSpanQuery, chromaQuery } from "./labelled-shapes";
import { parseSquad } from "./labelled-squad";
import { readTextFile } from "./text-file";
import type { LabelledOptions, LabelledSet, LabelledShape } from "./types";

/**
 * Questions with the exact text to retrieve, located in `docs` (SQuAD brings its own): `answer-span` rows (CSV or
 * JSONL), Chroma's `questions_df.csv` or SQuAD JSON. Malformed rows name file, line and column, or are counted.
 */
export function loadLabelledSet(file: string, docs: readonly Doc[] = [], options: LabelledOptions = {}): LabelledSet {
  const format = ({ ".csv": "CSV", ".json": "JSON" } as Record<string, string>)[extname(file).toLowerCase()] ?? "JSONL";
  const text = readTextFile(file, {
    what: "labelled set",
    expected: `a text ${format}`,
    fix:
      "give --queries a text file (CSV with a header, JSONL or SQuAD JSON; UTF-8 or UTF-16), e.g. a spreadsheet " +
      "exported as CSV",
  });
  return parseLabelledSet(text, file, docs, options);
}

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
  const missing = required.find((column) => !(column in first));
  if (missing !== undefined) {
    throw new SeamlabError(
      `${file}:${extension === ".csv" ? 1 : rows[0].line}: missing column "${missing}" (found ` +
        `${Object.keys(first).join(", ") || "none"}). ` +
        `Expected ${required.join(", ")}.`,
    );
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
      rejectRow(report, `${where}: ${error.message}`, options);
    }
  }
  report.queries = queries.length;
  return { queries, docs: [...docs], report };
}
