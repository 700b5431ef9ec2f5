import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
import { loadLabelledSet } from "../corpus/labelled";
import { loadCorpus } from "../corpus/load";
import type { LabelledReport } from "../corpus/types";
import { buildHeaderQueries, type HeaderQueryOptions, type HeaderQuerySet } from "./header-queries";

/** Where the corpus and the queries come from (what the CLI's flags and a notebook's parameters name). */
export interface EvaluationInputSpec {
  /** Corpus spec (default name, folder, file, glob or npm:). Not read for a SQuAD .json, which brings its own. */
  corpus?: string;
  /** "headers" (default): header-as-query pairs built from the corpus; else a labelled set file. */
  queries?: string;
  /** Header queries: which headings and how much prose under each. */
  headers?: HeaderQueryOptions;
  /** Labelled sets: skip malformed rows (counted) instead of stopping at the first one. */
  skipMalformed?: boolean;
}

/** The documents to split and the queries to run (header queries strip heading lines from the docs). */
export interface EvaluationInputs {
  /** The corpus spec as given (the SQuAD file when it brought the documents). */
  corpus: string;
  /** The corpus's own name when it has one (a default corpus), else the spec. */
  name: string;
  docs: Doc[];
  /** The documents as read (header queries remove heading lines from `docs`; these keep them). */
  corpusDocs: readonly Doc[];
  queries: Query[];
  source:
    | { kind: "headers"; headings: number; skipped: HeaderQuerySet["skipped"] }
    | { kind: "labelled"; report: LabelledReport };
}

/** A SQuAD file (`.json`) brings its own documents. */
export const isSquadFile = (queries: string) => queries.toLowerCase().endsWith(".json");

/**
 * The one loader of a corpus and its queries, for the CLI, notebooks and benchmarks alike. Its rules:
 * header queries unless a labelled file is named; a SQuAD .json brings its documents (no corpus is read);
 * CSV/JSONL answers are placed in the corpus; a malformed labelled row stops with its file and line unless
 * `skipMalformed`; an empty corpus, or no query at all, is a SeamlabError naming what to change.
 */
export function loadCorpusAndQueries(spec: EvaluationInputSpec): EvaluationInputs {
  const queries = spec.queries ?? "headers";
  if (queries !== "headers" && isSquadFile(queries)) {
    const set = loadLabelledSet(queries, [], { skipMalformed: spec.skipMalformed });
    return withQueries(queries, queries, set.docs, set.docs, set.queries, { kind: "labelled", report: set.report });
  }
  if (spec.corpus === undefined || spec.corpus === "") {
    throw new SeamlabError(
      `${queries === "headers" ? "header queries need" : `${queries} needs`} a corpus: name one (--corpus, or the notebook's corpus parameter).`,
    );
  }
  const loaded = loadCorpus(spec.corpus);
  const name = loaded.name ?? spec.corpus;
  if (loaded.docs.length === 0) {
    throw new SeamlabError(`corpus "${spec.corpus}" has no non-empty .md/.txt documents: name another (--corpus).`);
  }
  if (queries === "headers") {
    const set = buildHeaderQueries(loaded.docs, spec.headers);
    if (set.queries.length === 0) {
      throw new SeamlabError(
        `corpus "${spec.corpus}" has no markdown headings with prose under them (${set.headings} usable headings), ` +
          "so no header queries can be built: try --include-h3 or drop --question-headers-only, or give a labelled " +
          "file (--queries FILE, or the notebook's queries parameter).",
      );
    }
    const source = { kind: "headers" as const, headings: set.headings, skipped: set.skipped };
    return { corpus: spec.corpus, name, docs: set.docs, corpusDocs: loaded.docs, queries: set.queries, source };
  }
  const set = loadLabelledSet(queries, loaded.docs, { skipMalformed: spec.skipMalformed });
  return withQueries(spec.corpus, name, set.docs, loaded.docs, set.queries, { kind: "labelled", report: set.report });
}

function withQueries(
  corpus: string,
  name: string,
  docs: Doc[],
  corpusDocs: readonly Doc[],
  queries: Query[],
  source: { kind: "labelled"; report: LabelledReport },
): EvaluationInputs {
  if (queries.length === 0) {
    const { file, notLocated, skippedMalformed } = source.report;
    throw new SeamlabError(
      `no question in ${file} could be placed in the corpus (not located: ${JSON.stringify(notLocated)}` +
        `${skippedMalformed > 0 ? `; ${skippedMalformed} malformed rows skipped` : ""}): check --corpus and --queries.`,
    );
  }
  return { corpus, name, docs, corpusDocs, queries, source };
}
