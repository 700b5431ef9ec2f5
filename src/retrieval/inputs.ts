import { totalChars, type Doc, type Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { loadCorpus, streamCorpus } from "../corpus/load";
import { buildQuerySet, isSquadSpec, type QuerySet, type QuerySourceOptions } from "./query-source";
import {
  defaultQuerySampleRequest,
  sampleQueries,
  sampledLabel,
  type QuerySample,
  type QuerySampleRequest,
} from "./query-sample";

/** Where the corpus and the queries come from (the CLI's flags, a notebook's parameters). */
export interface EvaluationInputSpec extends Omit<QuerySourceOptions, "corpusName"> {
  corpus?: string; // a default name, folder, file, glob or npm:; not read for a SQuAD .json, which brings its own
  queries?: string; // "headers" (default), "ict", or a labelled set file
  querySample?: QuerySampleRequest;
}

export interface EvaluationInputs {
  corpus: string; // as given (the SQuAD file when it brought the documents)
  name: string;
  docs: Doc[]; // header and ICT queries removed text, once
  corpusDocs: readonly Doc[]; // as read; empty for header queries, whose corpus is streamed (never held twice)
  corpusSize: { documents: number; chars: number };
  queries: Query[];
  querySample: QuerySample;
  queryLabel: string; // for every table and chart: "500 ICT queries (sentence removed)", "1,537 of 2,425 header ..."
  queryDescription: string; // how the queries were made, ending with the sample
  source: QuerySet["provenance"];
}

export const isSquadFile = isSquadSpec;

/** The one loader of a corpus and its queries, for the CLI, notebooks and benchmarks alike. */
export function loadCorpusAndQueries(spec: EvaluationInputSpec): EvaluationInputs {
  const queries = spec.queries ?? "headers";
  const options = { headers: spec.headers, ict: spec.ict, skipMalformed: spec.skipMalformed, corpusName: spec.corpus };
  if (isSquadFile(queries)) {
    const set = buildQuerySet(queries, [], options);
    return withSet(queries, queries, set.docs, set, spec.querySample);
  }
  if (spec.corpus === undefined || spec.corpus === "")
    throw new SeamlabError(
      `${queries === "headers" || queries === "ict" ? `${queries} queries need` : `${queries} needs`} a corpus: ` +
        `name one (--corpus, or the notebook's corpus parameter).`,
    );
  if (queries === "headers") {
    // streamed: each document is held only as its heading-less text, never twice
    const stream = streamCorpus(spec.corpus);
    const size = { documents: 0, chars: 0 };
    const counted = function* () {
      for (const doc of stream.docs()) {
        size.documents++;
        size.chars += doc.text.length;
        yield doc;
      }
    };
    const set = buildQuerySet(queries, counted(), options);
    return withSet(spec.corpus, stream.name ?? spec.corpus, [], set, spec.querySample, size);
  }
  const loaded = loadCorpus(spec.corpus);
  if (loaded.docs.length === 0)
    throw new SeamlabError(`corpus "${spec.corpus}" has no non-empty .md/.txt documents: name another (--corpus).`);
  const set = buildQuerySet(queries, loaded.docs, options);
  return withSet(spec.corpus, loaded.name ?? spec.corpus, loaded.docs, set, spec.querySample);
}

function withSet(
  corpus: string,
  name: string,
  corpusDocs: readonly Doc[],
  set: QuerySet,
  request: QuerySampleRequest | undefined,
  corpusSize = { documents: corpusDocs.length, chars: totalChars(corpusDocs) },
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

/** Inputs loaded with every query narrowed to a sample chosen afterwards (`--budget`); `reason`: "budget 5 min". */
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
