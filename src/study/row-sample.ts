// What a study's sweeps run on: `seamlab sweep`'s default document sample for seam damage and embedded tokens.
import type { Doc, Query } from "../core/types";
import { defaultSampleRequest, type SampleRequest } from "../corpus/sample";
import type { ExperimentConfig } from "../experiment/grid";
import { resolveRowSample, wholeCorpusChars } from "../experiment/row-sample";
import type { SweepInputs } from "../experiment/rows";
import type { CostedRow } from "../experiment/run";

/**
 * The sweep inputs of a study: every document indexed and every query run, while seam damage and embedded tokens
 * are measured on a seeded document sample as `seamlab sweep --sample auto` does. Up to `wholeUpTo` characters
 * (the default corpora) every document is measured, so those rows are the same as without sampling; above it, the
 * per-document sentence pairs and token pieces of the whole corpus (about 3 bytes per character, kept for every
 * config of the sweep) are built for the sample only.
 */
export function studySweepInputs(
  inputs: { docs: readonly Doc[]; queries: readonly Query[] },
  configs: readonly ExperimentConfig[],
  wholeUpTo = wholeCorpusChars,
  request: SampleRequest = defaultSampleRequest,
): SweepInputs {
  const sample = resolveRowSample(inputs.docs, configs, request, 1, wholeUpTo);
  return sample
    ? { docs: inputs.docs, queries: inputs.queries, sample }
    : { docs: inputs.docs, queries: inputs.queries };
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
