// What the notebooks load: a corpus (prose notebooks) or a corpus with queries (retrieval notebooks).
import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
import { loadCorpus } from "../corpus/load";
import type { LabelledReport } from "../corpus/types";
import { loadCorpusAndQueries, type EvaluationInputs } from "../retrieval/inputs";

export interface ProseInputs {
  docs: Doc[];
  /** e.g. "moby-dick: 138 documents, 1,212,842 characters" */
  description: string;
}

export interface RetrievalInputs extends ProseInputs {
  queries: Query[];
  /** Where the queries came from and why this source, in a sentence. */
  querySource: string;
  /** Short, for every chart subtitle and table caption: "500 ICT queries (sentence removed)". */
  queryLabel: string;
  /** "header" (the corpus's headings), "ict" (sampled sentences) or "labelled" (a user's file). */
  queryKind: "header" | "ict" | "labelled";
  /** What reading a labelled file found (rows skipped, ambiguous answers, ...); only for labelled queries. */
  labelled?: LabelledReport;
}

function describe(name: string, docs: readonly Doc[]): string {
  const chars = docs.reduce((sum, doc) => sum + doc.text.length, 0);
  return `${name}: ${docs.length.toLocaleString("en-US")} documents, ${chars.toLocaleString("en-US")} characters`;
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
 * The corpus and its queries (rules: `loadCorpusAndQueries`; `queries`: "headers", "ict", a labelled file, or
 * undefined to choose): a labelled file (CSV/JSONL answer spans, Chroma CSV or SQuAD JSON; malformed rows are
 * skipped and counted); header-as-query pairs from the `##` (and `###`) headings, whose heading lines are removed
 * from the text that gets split; or inverse-cloze queries (sampled sentences, removed from the text, their
 * neighbours the gold span). Undefined chooses headers when the corpus has them and ICT otherwise, and says why.
 */
export function loadRetrievalInputs(
  corpus: string,
  queries?: string,
  { includeH3 = true, ictCount }: { includeH3?: boolean; ictCount?: number } = {},
): RetrievalInputs {
  const spec = { corpus, headers: { includeH3 }, ict: { n: ictCount }, skipMalformed: true };
  let inputs: EvaluationInputs;
  let why: string;
  if (queries === undefined || queries === "") {
    try {
      inputs = loadCorpusAndQueries({ ...spec, queries: "headers" });
      why = "chosen because the corpus has markdown headings with prose under them";
    } catch (error) {
      if (!(error instanceof SeamlabError) || !/no markdown headings/.test(error.message)) throw error;
      inputs = loadCorpusAndQueries({ ...spec, queries: "ict" });
      why = "chosen because the corpus has no markdown headings with prose under them and no labelled file was given";
    }
  } else {
    inputs = loadCorpusAndQueries({ ...spec, queries });
    why = "as asked for in the queries parameter";
  }
  const kind = inputs.source.kind;
  return {
    docs: inputs.docs,
    description: describe(inputs.name, inputs.corpusDocs),
    queries: inputs.queries,
    querySource: `${inputs.queryDescription} (${why})`,
    queryLabel: inputs.queryLabel,
    queryKind: kind === "headers" ? "header" : kind,
    labelled: inputs.source.kind === "labelled" ? inputs.source.report : undefined,
  };
}
