import type { Doc, Query } from "../core/types";

/** The document and section types of corpus/doc-types, in the order its rules try them. */
export const DOC_TYPES = ["reference", "faq", "prose", "transcript", "code", "table", "unknown"] as const;
export type DocType = (typeof DOC_TYPES)[number];

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
