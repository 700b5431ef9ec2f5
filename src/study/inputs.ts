// What the notebooks load: a corpus, or a corpus with queries.
import { totalChars, type Doc, type Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { loadCorpus } from "../corpus/load";
import { readCharacterSample, readDocumentSample } from "../corpus/sample-read";
import type { LabelledReport } from "../corpus/types";
import { headersElseIct } from "../retrieval/headers-else-ict";
import { loadCorpusAndQueries, type EvaluationInputs } from "../retrieval/inputs";
import { parseQuerySample, type QuerySample } from "../retrieval/query-sample";
import { thousands } from "../stats/format";

export interface ProseInputs {
  docs: Doc[];
  /** e.g. "moby-dick: 138 documents, 1,212,842 characters" */
  description: string;
}

export interface RetrievalInputs extends ProseInputs {
  /** the queries that run (a seeded sample of a large set) */
  queries: Query[];
  querySample: QuerySample;
  /** where the queries came from and why this source, in a sentence */
  querySource: string;
  /** for chart subtitles and captions: "500 ICT queries (sentence removed)" */
  queryLabel: string;
  queryKind: "header" | "ict" | "labelled";
  /** what reading a labelled file found (rows skipped, ambiguous answers, ...) */
  labelled?: LabelledReport;
  /** the loader's own inputs, as `seamlab sweep` has them; absent for a sample */
  evaluation?: EvaluationInputs;
}

export function describeCounts(name: string, documents: number, chars: number): string {
  return `${name}: ${thousands(documents)} documents, ${thousands(chars)} characters`;
}

/** Loads a corpus (default name, folder, file, glob or npm: spec) for the seam notebooks. */
export function loadProse(corpus: string): ProseInputs {
  const loaded = loadCorpus(corpus);
  if (loaded.docs.length === 0)
    throw new SeamlabError(
      `corpus "${corpus}" has no non-empty .md/.txt documents: set the corpus parameter to another folder.`,
    );
  const description = describeCounts(loaded.name ?? corpus, loaded.docs.length, totalChars(loaded.docs));
  return { docs: loaded.docs, description };
}

/** A seeded document sample of the corpus when `sample` is a count (only it is read), else `loadProse`. */
export function loadProseSample(corpus: string, sample: string | number): ProseInputs {
  if (typeof sample !== "number") return loadProse(corpus);
  const read = readDocumentSample(corpus, sample);
  const whole = describeCounts(read.name ?? corpus, read.population, read.populationChars);
  return { docs: read.docs, description: `${whole} (${thousands(read.docs.length)} read: the sample)` };
}

/** What a notebook's reader raises to run more of the queries (named by an undecided verdict's advice). */
export const querySampleParameter = "the querySample parameter (`seamlab report --query-sample`)";

export interface RetrievalInputOptions {
  headingLevels?: readonly number[];
  ictCount?: number;
  /** "auto" (default), "auto:0.02", "all" or a number of queries */
  querySample?: string | number;
}

const WHY_THESE_QUERIES = {
  asked: "as asked for in the queries parameter",
  headers: "chosen because the corpus has markdown headings with prose under them",
  ict: "chosen because the corpus has no markdown headings with prose under them and no labelled file was given",
};

/** The corpus and its queries ("headers", "ict", a labelled file, or undefined: headers if it has them, else ICT). */
export function loadRetrievalInputs(
  corpus: string,
  queries?: string,
  { headingLevels, ictCount, querySample }: RetrievalInputOptions = {},
): RetrievalInputs {
  const sample = parseQuerySample(querySample, "the querySample parameter");
  const spec = { corpus, headers: { headingLevels }, ict: { n: ictCount }, skipMalformed: true, querySample: sample };
  const chosen = queries
    ? { value: loadCorpusAndQueries({ ...spec, queries }), source: "asked" as const }
    : headersElseIct((source) => loadCorpusAndQueries({ ...spec, queries: source }));
  const inputs = chosen.value;
  const why = WHY_THESE_QUERIES[chosen.source];
  const kind = inputs.source.kind;
  return {
    docs: inputs.docs,
    description: describeCounts(inputs.name, inputs.corpusSize.documents, inputs.corpusSize.chars),
    queries: inputs.queries,
    querySample: inputs.querySample,
    querySource: `${inputs.queryDescription} (${why})`,
    queryLabel: inputs.queryLabel,
    queryKind: kind === "headers" ? "header" : kind,
    labelled: inputs.source.kind === "labelled" ? inputs.source.report : undefined,
    evaluation: inputs,
  };
}

/** Whole inputs, or (`documentChars` a number) a seeded document sample of about that size with no queries: sampling
 * documents would remove distractors and inflate hit rates, so the retrieval sections are left out. */
export function loadOrSample<T>(
  corpus: string,
  documentChars: string | number | undefined,
  whole: () => T,
  sampled: (docs: Doc[], description: string) => T,
): T {
  if (documentChars === undefined || documentChars === "all") return whole();
  if (typeof documentChars !== "number")
    throw new SeamlabError(
      `the documentChars parameter must be "all" or a number of characters; got ${JSON.stringify(documentChars)}.`,
    );
  const read = readCharacterSample(corpus, documentChars, "the documentChars parameter");
  return sampled(
    read.docs,
    `${describeCounts(read.name ?? corpus, read.population, read.populationChars)} (a seeded stratified sample of ` +
      `${thousands(read.docs.length)} documents, ${thousands(totalChars(read.docs))} characters, read: the sample)`,
  );
}

/** Notebook 06's inputs, whole or a document sample with no queries (`loadOrSample`). */
export function loadRetrievalOrSample(
  corpus: string,
  queries: string | undefined,
  options: RetrievalInputOptions & { documentChars?: string | number } = {},
): RetrievalInputs {
  const { documentChars, ...rest } = options;
  return loadOrSample(
    corpus,
    documentChars,
    () => loadRetrievalInputs(corpus, queries, rest),
    (docs, description) => ({
      docs,
      description,
      queries: [],
      querySample: { queries: [], indexes: [], population: 0, sampled: false, description: "no queries" },
      querySource: "none: retrieval indexes the whole corpus, and only a document sample was read",
      queryLabel: "no queries",
      queryKind: "header",
    }),
  );
}
