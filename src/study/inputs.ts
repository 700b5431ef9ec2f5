// What the notebooks load: a corpus (prose notebooks) or a corpus with queries (retrieval notebooks).
import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
import { loadCorpus } from "../corpus/load";
import type { LabelledReport } from "../corpus/types";
import { loadCorpusAndQueries } from "../retrieval/inputs";

export interface ProseInputs {
  docs: Doc[];
  /** e.g. "moby-dick: 138 documents, 1,212,842 characters" */
  description: string;
}

export interface RetrievalInputs extends ProseInputs {
  queries: Query[];
  /** Where the queries came from, in a sentence. */
  querySource: string;
  /** "header" (built from the corpus's headings) or "labelled" (a user's file). */
  queryKind: "header" | "labelled";
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
 * The corpus and its queries (rules: `loadCorpusAndQueries`): a labelled file when `queries` is given (CSV/JSONL
 * answer spans, Chroma CSV or SQuAD JSON; malformed rows are skipped and counted in `querySource`), else
 * header-as-query pairs built from the corpus's `##` (and `###`) headings, whose heading lines are removed from
 * the text that gets split.
 */
export function loadRetrievalInputs(corpus: string, queries?: string, { includeH3 = true } = {}): RetrievalInputs {
  const inputs = loadCorpusAndQueries({ corpus, queries, headers: { includeH3 }, skipMalformed: true });
  const common = { docs: inputs.docs, description: describe(inputs.name, inputs.corpusDocs), queries: inputs.queries };
  if (inputs.source.kind === "labelled") {
    const report = inputs.source.report;
    const skipped = report.rows - report.queries;
    const skippedNote = skipped > 0 ? `; ${skipped} rows skipped` : "";
    return {
      ...common,
      querySource: `${report.queries} labelled questions from \`${queries}\` (${report.shape} shape${skippedNote})`,
      queryKind: "labelled",
      labelled: report,
    };
  }
  const levels = includeH3 ? "`##`/`###`" : "`##`";
  return {
    ...common,
    querySource:
      `${inputs.queries.length} header queries: each ${levels} heading is a question and the first sentence ` +
      "under it the answer; heading lines are removed from the text before splitting, so a query never matches its own heading",
    queryKind: "header",
  };
}
