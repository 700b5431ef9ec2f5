import { SeamlabError } from "../core/errors";
import type { Doc, Query } from "../core/types";
import { loadCorpus, streamCorpus } from "../corpus/load";
import type { HeaderQueryOptions } from "./header-queries";
import type { IctOptions } from "./ict-queries";
import { buildQuerySet, isSquadSpec, type QuerySet } from "./query-source";
import {
  defaultQuerySampleRequest,
  sampleQueries,
  sampledLabel,
  type QuerySample,
  type QuerySampleRequest,
} from "./query-sample";

/** Where the corpus and the queries come from (what the CLI's flags and a notebook's parameters name). */
export interface EvaluationInputSpec {
  /** Corpus spec (default name, folder, file, glob or npm:). Not read for a SQuAD .json, which brings its own. */
  corpus?: string;
  /** "headers" (default): header-as-query pairs; "ict": inverse-cloze queries; else a labelled set file. */
  queries?: string;
  /** Header queries: which headings and how much prose under each. */
  headers?: HeaderQueryOptions;
  /** ICT queries: how many, which seed, how much context, sentence kept or removed. */
  ict?: IctOptions;
  /** Labelled sets: skip malformed rows (counted) instead of stopping at the first one. */
  skipMalformed?: boolean;
  /** How many queries run (`--query-sample`; default auto, see `defaultQuerySampleRequest`). The corpus stays whole. */
  querySample?: QuerySampleRequest;
}

/** The documents to split and the queries to run (header and ICT queries remove text from `docs`, once). */
export interface EvaluationInputs {
  /** The corpus spec as given (the SQuAD file when it brought the documents). */
  corpus: string;
  /** The corpus's own name when it has one (a default corpus), else the spec. */
  name: string;
  docs: Doc[];
  /**
   * The documents as read (header and ICT queries remove text from `docs`; these keep it). Empty for header
   * queries, whose corpus is read as a stream so that it is never held twice: `corpusSize` says what was read.
   */
  corpusDocs: readonly Doc[];
  /** Documents and characters of the corpus as read. */
  corpusSize: { documents: number; chars: number };
  /** The queries that run: the sample (every query when not sampled). */
  queries: Query[];
  /** Which queries run, out of how many the source gave, in words ("a seeded sample of 1,537 of 2,425 queries"). */
  querySample: QuerySample;
  /** Source and count, for every table and chart: "500 ICT queries (sentence removed)", or for a sample
   * "1,537 of 2,425 header queries, a seeded sample". */
  queryLabel: string;
  /** How the queries were made, in a sentence (ending with the sample). */
  queryDescription: string;
  source: QuerySet["provenance"];
}

/** A SQuAD file (`.json`) brings its own documents. */
export const isSquadFile = isSquadSpec;

/**
 * The one loader of a corpus and its queries, for the CLI, notebooks and benchmarks alike. Its rules:
 * header queries unless `ict` or a labelled file is named (`query-source.ts` builds each); a SQuAD .json brings
 * its documents (no corpus is read); CSV/JSONL answers are placed in the corpus; a malformed labelled row stops
 * with its file and line unless `skipMalformed`; an empty corpus, or no query at all, is a SeamlabError naming
 * what to change.
 */
export function loadCorpusAndQueries(spec: EvaluationInputSpec): EvaluationInputs {
  const queries = spec.queries ?? "headers";
  const options = { headers: spec.headers, ict: spec.ict, skipMalformed: spec.skipMalformed };
  if (isSquadFile(queries)) {
    const set = buildQuerySet(queries, [], options);
    return withSet(queries, queries, set.docs, set, spec.querySample);
  }
  if (spec.corpus === undefined || spec.corpus === "") {
    throw new SeamlabError(
      `${queries === "headers" || queries === "ict" ? `${queries} queries need` : `${queries} needs`} a corpus: ` +
        `name one (--corpus, or the notebook's corpus parameter).`,
    );
  }
  if (queries === "headers") {
    // Read one document at a time: each is held only as its heading-less text, never twice (a 1 GB corpus
    // would otherwise peak at two copies while its queries are built).
    const stream = streamCorpus(spec.corpus);
    const size = { documents: 0, chars: 0 };
    const counted = function* () {
      for (const doc of stream.docs()) {
        size.documents++;
        size.chars += doc.text.length;
        yield doc;
      }
    };
    const set = buildQuerySet(queries, counted(), { ...options, corpusName: spec.corpus });
    return withSet(spec.corpus, stream.name ?? spec.corpus, [], set, spec.querySample, size);
  }
  const loaded = loadCorpus(spec.corpus);
  const name = loaded.name ?? spec.corpus;
  if (loaded.docs.length === 0) {
    throw new SeamlabError(`corpus "${spec.corpus}" has no non-empty .md/.txt documents: name another (--corpus).`);
  }
  return withSet(
    spec.corpus,
    name,
    loaded.docs,
    buildQuerySet(queries, loaded.docs, { ...options, corpusName: spec.corpus }),
    spec.querySample,
  );
}

function withSet(
  corpus: string,
  name: string,
  corpusDocs: readonly Doc[],
  set: QuerySet,
  request: QuerySampleRequest | undefined,
  corpusSize = { documents: corpusDocs.length, chars: corpusDocs.reduce((sum, doc) => sum + doc.text.length, 0) },
): EvaluationInputs {
  const whole: EvaluationInputs = {
    corpus,
    name,
    docs: set.docs,
    corpusDocs,
    corpusSize,
    queries: set.queries,
    querySample: sampleQueries(set.queries, { kind: "all" }),
    queryLabel: set.label,
    queryDescription: set.description,
    source: set.provenance,
  };
  return sampleEvaluationInputs(whole, request ?? defaultQuerySampleRequest);
}

/**
 * Inputs loaded with every query (`querySample: all`) narrowed to a sample chosen afterwards (e.g. by `--budget`,
 * whose pilot needs the whole set first); `reason` says why in the description ("budget 5 min").
 */
export function sampleEvaluationInputs(
  inputs: EvaluationInputs,
  request: QuerySampleRequest,
  reason?: string,
): EvaluationInputs {
  if (inputs.querySample.sampled)
    throw new SeamlabError("sampleEvaluationInputs needs inputs loaded with every query (querySample: all).");
  const sample = sampleQueries(inputs.queries, request, undefined, reason);
  return {
    ...inputs,
    queries: sample.queries,
    querySample: sample,
    queryLabel: sampledLabel(inputs.queryLabel, sample),
    queryDescription: sample.sampled
      ? `${inputs.queryDescription}; of these, ${sample.description} run`
      : inputs.queryDescription,
  };
}
