// A seeded document sample of a corpus read without holding the rest: one streaming pass gathers each document's
// id and length, the stratified sample is drawn from those outlines, and only the sampled files are read again.
// For a 1 GB corpus whose seam statistics need a few thousand documents, memory holds those, not the gigabyte.
import type { Doc } from "../core/types";
import { streamCorpus } from "./load";
import { characterBudgetSample, documentSample, markDrawnSample, type DocOutline, type DocumentSample } from "./sample";

export interface ReadSample {
  /** The sampled documents (marked as a sample of the corpus: samples drawn from them name its size). */
  docs: Doc[];
  /** Documents and characters in the whole corpus. */
  population: number;
  populationChars: number;
  /** The corpus's default name, when the spec named one. */
  name?: string;
}

/** Reads `count` documents of corpus `spec` (a seeded stratified sample, as `documentSample` draws it). */
export function readDocumentSample(spec: string, count: number, seed = 1): ReadSample {
  return readSample(spec, (outlines) => documentSample(outlines, count, "", seed));
}

/**
 * Reads a seeded stratified sample of about `maxChars` characters of corpus `spec` (as `characterBudgetSample` draws
 * it; every document when the corpus is no larger). `parameter` names the value in an error.
 */
export function readCharacterSample(spec: string, maxChars: number, parameter: string, seed = 1): ReadSample {
  return readSample(spec, (outlines) => characterBudgetSample(outlines, maxChars, { seed, parameter }));
}

function readSample(spec: string, draw: (outlines: DocOutline[]) => DocumentSample<DocOutline>): ReadSample {
  const stream = streamCorpus(spec);
  const outlines: DocOutline[] = Array.from(stream.docs(), (doc) => ({ id: doc.id, length: doc.text.length }));
  const populationChars = outlines.reduce((sum, doc) => sum + doc.length, 0);
  const sample = draw(outlines);
  const docs = [...stream.docs(new Set(sample.docs.map((doc) => doc.id)))];
  // the corpus's strata (folder × length quartile in the whole corpus), not the sample's own
  const strataOf = new Map(sample.docs.map((doc, i) => [doc.id, sample.strata[i]]));
  markDrawnSample(
    docs,
    outlines.length,
    docs.map((doc) => strataOf.get(doc.id) ?? "."),
  );
  return { docs, population: outlines.length, populationChars, name: stream.name };
}
