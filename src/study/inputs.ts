// What the notebooks load: a corpus (prose notebooks) or a corpus with queries (retrieval notebooks).
import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
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
  /** The queries that run (a seeded sample of a large set; see `querySample`). */
  queries: Query[];
  /** Which queries run out of how many: "a seeded sample of 1,537 of 2,425 queries (auto: ...)". */
  querySample: QuerySample;
  /** Where the queries came from and why this source, in a sentence (with the sample). */
  querySource: string;
  /** Short, for every chart subtitle and table caption: "500 ICT queries (sentence removed)". */
  queryLabel: string;
  /** "header" (the corpus's headings), "ict" (sampled sentences) or "labelled" (a user's file). */
  queryKind: "header" | "ict" | "labelled";
  /** What reading a labelled file found (rows skipped, ambiguous answers, ...); only for labelled queries. */
  labelled?: LabelledReport;
  /** The loader's own inputs (corpus spec, source provenance), as `seamlab sweep` has them; absent for a sample. */
  evaluation?: EvaluationInputs;
}

function describe(name: string, docs: readonly Doc[]): string {
  return describeCounts(
    name,
    docs.length,
    docs.reduce((sum, doc) => sum + doc.text.length, 0),
  );
}

function describeCounts(name: string, documents: number, chars: number): string {
  return `${name}: ${thousands(documents)} documents, ${thousands(chars)} characters`;
}

/** Loads a corpus (default name, folder, file, glob or npm: spec) for the seam notebooks. */
export function loadProse(corpus: string): ProseInputs {
  const loaded = loadCorpus(corpus);
  if (loaded.docs.length === 0)
    throw new SeamlabError(
      `corpus "${corpus}" has no non-empty .md/.txt documents: set the corpus parameter to another folder.`,
    );
  return { docs: loaded.docs, description: describe(loaded.name ?? corpus, loaded.docs) };
}

/**
 * The seam notebooks' corpus under a document-count `sample` (as `seamlab report --budget` injects): only that seeded
 * stratified sample is read, never the whole corpus; samples drawn from it name the corpus's size. Any other
 * `sample` ("auto", "all") loads every document, as `loadProse`. The description is the whole corpus's.
 */
export function loadProseSample(corpus: string, sample: string | number): ProseInputs {
  if (typeof sample !== "number") return loadProse(corpus);
  const read = readDocumentSample(corpus, sample);
  const whole = describeCounts(read.name ?? corpus, read.population, read.populationChars);
  return { docs: read.docs, description: `${whole} (${thousands(read.docs.length)} read: the sample)` };
}

/** What a notebook's reader raises to run more of the queries (named by the advice of an undecided verdict). */
export const querySampleParameter = "the querySample parameter (`seamlab report --query-sample`)";

/** Options of `loadRetrievalInputs`. */
export interface RetrievalInputOptions {
  /** Header queries' heading levels (default DEFAULT_HEADING_LEVELS, the CLI's default too). */
  headingLevels?: readonly number[];
  ictCount?: number;
  /** A notebook's `querySample` parameter: "auto" (default), "auto:0.02", "all" or a number of queries. */
  querySample?: string | number;
}

/**
 * The corpus and its queries (rules: `loadCorpusAndQueries`; `queries`: "headers", "ict", a labelled file, or
 * undefined to choose; `querySample`: how many of them run, the corpus indexed whole): a labelled file (CSV/JSONL
 * answer spans, Chroma CSV or SQuAD JSON; malformed rows are skipped and counted); header-as-query pairs from the
 * `##` (and `###`) headings, whose heading lines are removed from the text that gets split; or inverse-cloze
 * queries (sampled sentences, removed from the text, their neighbours the gold span). Undefined chooses headers
 * when the corpus has them and ICT otherwise, and says why.
 */
export function loadRetrievalInputs(
  corpus: string,
  queries?: string,
  { headingLevels, ictCount, querySample }: RetrievalInputOptions = {},
): RetrievalInputs {
  const sample = parseQuerySample(querySample, "the querySample parameter");
  const spec = { corpus, headers: { headingLevels }, ict: { n: ictCount }, skipMalformed: true, querySample: sample };
  let inputs: EvaluationInputs;
  let why: string;
  if (queries === undefined || queries === "") {
    const chosen = headersElseIct((source) => loadCorpusAndQueries({ ...spec, queries: source }));
    inputs = chosen.value;
    why =
      chosen.source === "headers"
        ? "chosen because the corpus has markdown headings with prose under them"
        : "chosen because the corpus has no markdown headings with prose under them and no labelled file was given";
  } else {
    inputs = loadCorpusAndQueries({ ...spec, queries });
    why = "as asked for in the queries parameter";
  }
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

/**
 * A notebook's inputs under its `documentChars` parameter (`seamlab report --budget` injects a number as the least
 * work of notebooks 06 and 07 on a large corpus): "all" (or nothing) loads them whole (`whole()`); a number of
 * characters reads only a seeded stratified document sample of about that size and gives it to `sampled` with its
 * description, and no queries are built: retrieval indexes the whole corpus (sampling documents would remove
 * distractors and inflate hit rates), so the notebook's retrieval sections are left out, and the description says
 * what was read.
 */
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
  const chars = read.docs.reduce((sum, doc) => sum + doc.text.length, 0);
  return sampled(
    read.docs,
    `${describeCounts(read.name ?? corpus, read.population, read.populationChars)} (a seeded stratified sample of ` +
      `${thousands(read.docs.length)} documents, ${thousands(chars)} characters, read: the sample)`,
  );
}

/** A retrieval notebook's inputs (notebook 06), whole or a document sample with no queries (`loadOrSample`). */
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
