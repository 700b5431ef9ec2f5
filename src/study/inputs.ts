// What the notebooks load: a corpus (prose notebooks) or a corpus with queries (retrieval notebooks).
import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
import { loadCorpus } from "../corpus/load";
import { loadLabelledSet } from "../corpus/labelled";
import { buildHeaderQueries } from "../retrieval/header-queries";

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
 * The corpus and its queries: a labelled file when `queries` is given (CSV/JSONL answer spans, Chroma CSV or
 * SQuAD JSON), else header-as-query pairs built from the corpus's `##` (and `###`) headings, whose heading lines
 * are removed from the text that gets split.
 */
export function loadRetrievalInputs(corpus: string, queries?: string, { includeH3 = true } = {}): RetrievalInputs {
  const prose = loadProse(corpus);
  if (queries) {
    const set = loadLabelledSet(queries, prose.docs, { skipMalformed: true });
    if (set.queries.length === 0)
      throw new SeamlabError(
        `${queries}: no question could be placed in the corpus (set the queries parameter to a labelled file for this corpus).`,
      );
    const skipped = set.report.rows - set.report.queries;
    return {
      docs: set.docs,
      description: describe(corpus, set.docs),
      queries: set.queries,
      querySource: `${set.queries.length} labelled questions from \`${queries}\` (${set.report.shape} shape${skipped > 0 ? `; ${skipped} rows skipped` : ""})`,
      queryKind: "labelled",
    };
  }
  const set = buildHeaderQueries(prose.docs, { includeH3 });
  if (set.queries.length === 0) {
    throw new SeamlabError(
      `corpus "${corpus}" has no markdown headings with prose under them, so no header queries can be built: ` +
        "give a labelled file in the queries parameter (seamlab report --queries FILE).",
    );
  }
  return {
    docs: set.docs,
    description: prose.description,
    queries: set.queries,
    querySource:
      `${set.queries.length} header queries: each ${includeH3 ? "`##`/`###`" : "`##`"} heading is a question and the first sentence ` +
      "under it the answer; heading lines are removed from the text before splitting, so a query never matches its own heading",
    queryKind: "header",
  };
}
