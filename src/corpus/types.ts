import type { Doc, Query } from "../core/types";

export const DOC_TYPES = ["reference", "faq", "prose", "transcript", "code", "table", "unknown"] as const;
export type DocType = (typeof DOC_TYPES)[number];

export type LabelledShape = "answer-span" | "chroma" | "squad";

export interface LabelledReport {
  file: string;
  shape: LabelledShape;
  rows: number;
  queries: number;
  skippedMalformed: number;
  malformed: string[];
  /** answers that could not be placed, by reason */
  notLocated: Record<string, number>;
  /** answers found more than once (the first was used) */
  ambiguous: number;
  /** offsets moved to the nearest occurrence, and by how much ("new − given": count) */
  offsetsCorrected: number;
  offsetShifts: Record<string, number>;
}

export interface LabelledSet {
  queries: Query[];
  docs: Doc[];
  report: LabelledReport;
}

export interface LabelledOptions {
  skipMalformed?: boolean;
}
