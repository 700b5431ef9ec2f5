// A sample of a corpus read without holding the rest: one streaming pass gathers outlines, the sample is drawn from
// them, and only the sampled files are read again (a 1 GB corpus holds a few thousand documents, not the gigabyte).
import { streamCorpus } from "./load";
import { characterBudgetSample, documentSample, markDrawnSample, type DocOutline, type DocumentSample } from "./sample";

export function readDocumentSample(spec: string, count: number) {
  return readSample(spec, (outlines) => documentSample(outlines, count));
}

/** About `maxChars` characters, as `characterBudgetSample` draws them; `parameter` names the value in an error. */
export function readCharacterSample(spec: string, maxChars: number, parameter: string) {
  return readSample(spec, (outlines) => characterBudgetSample(outlines, maxChars, { parameter }));
}

function readSample(spec: string, draw: (outlines: DocOutline[]) => DocumentSample<DocOutline>) {
  const stream = streamCorpus(spec);
  const outlines: DocOutline[] = Array.from(stream.docs(), (doc) => ({ id: doc.id, length: doc.text.length }));
  const populationChars = outlines.reduce((sum, doc) => sum + doc.length, 0);
  const sample = draw(outlines);
  const docs = [...stream.docs(new Set(sample.docs.map((doc) => doc.id)))];
  // marked with the corpus's size and strata, not the sample's own
  const strataOf = new Map(sample.docs.map((doc, i) => [doc.id, sample.strata[i]]));
  const strata = docs.map((doc) => strataOf.get(doc.id) ?? ".");
  markDrawnSample(docs, outlines.length, strata);
  return { docs, population: outlines.length, populationChars, name: stream.name };
}
