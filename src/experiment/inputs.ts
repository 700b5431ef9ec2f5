import { SeamlabError } from "../core/errors";
import { loadLabelledSet } from "../corpus/labelled";
import { loadCorpus } from "../corpus/load";
import { buildHeaderQueries, type HeaderQueryOptions } from "../retrieval/header-queries";
import type { SweepInputs } from "./rows";

export interface SweepInputOptions extends HeaderQueryOptions {
  /** "headers" (default) for header queries, or a labelled set file (.csv, .jsonl, SQuAD .json). */
  queries?: string;
  /** Labelled sets: skip malformed rows instead of stopping. */
  skipMalformed?: boolean;
}

/**
 * The documents to split and the queries to run, from a corpus spec (what notebooks call before `runGrid`).
 * Header queries strip heading lines from the documents, so the returned docs are the ones to split.
 */
export function loadSweepInputs(corpus: string, options: SweepInputOptions = {}): SweepInputs {
  const queries = options.queries ?? "headers";
  if (queries === "headers") {
    const set = buildHeaderQueries(loadCorpus(corpus).docs, options);
    if (set.queries.length === 0)
      throw new SeamlabError(`no header queries in corpus "${corpus}" (${set.headings} headings).`);
    return { docs: set.docs, queries: set.queries };
  }
  const isSquad = queries.toLowerCase().endsWith(".json");
  const set = loadLabelledSet(queries, isSquad ? [] : loadCorpus(corpus).docs, {
    skipMalformed: options.skipMalformed,
  });
  return { docs: set.docs, queries: set.queries };
}
