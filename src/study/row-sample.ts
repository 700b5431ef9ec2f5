import type { Doc, Query } from "../core/types";
import { defaultSampleRequest, type SampleRequest } from "../corpus/sample";
import type { ExperimentConfig } from "../experiment/grid";
import { resolveRowSample, wholeCorpusChars } from "../experiment/row-sample";
import type { SweepInputs } from "../experiment/rows";
import type { CostedRow } from "../experiment/run";

/** A study's sweep inputs: every document indexed and every query run, seam damage and embedded tokens measured on a
 * seeded document sample as `seamlab sweep --sample auto` does (the whole corpus up to `wholeUpTo` characters). */
export function studySweepInputs(
  inputs: { docs: readonly Doc[]; queries: readonly Query[] },
  configs: readonly ExperimentConfig[],
  wholeUpTo = wholeCorpusChars,
  request: SampleRequest = defaultSampleRequest,
): SweepInputs {
  const sample = resolveRowSample(inputs.docs, configs, request, 1, wholeUpTo);
  return { docs: inputs.docs, queries: inputs.queries, ...(sample ? { sample } : {}) };
}

/** A sentence saying the embedded tokens of `rows` are estimated on a document sample, or "" when they are not. */
export function tokenSampleNote(rows: readonly CostedRow[]): string {
  const sample = rows.find((row) => row.sample)?.sample;
  if (!sample) return "";
  return (
    `Tokens embedded are estimated from ${sample.description} (tokens per chunk character there, times every ` +
    "chunk's characters); chunk counts and retrieval cover every document."
  );
}
