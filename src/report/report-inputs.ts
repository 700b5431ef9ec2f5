// `seamlab report`'s inputs, checked before any kernel starts: the corpus as the notebooks load it and the label its
// pages show, the queries against that corpus, and the corpus's size from its listing.
import { existsSync, statSync } from "node:fs";
import { basename, isAbsolute, resolve } from "node:path";
import { SeamlabError } from "../core/errors";
import { loadLabelledSet } from "../corpus/labelled";
import { listCorpus, loadCorpus, streamCorpus } from "../corpus/load";
import { buildQuerySet } from "../retrieval/query-source";

/** The corpus as `--corpus` names it to the notebooks (`parameter`) and as the pages show it (`label`). */
export interface ReportCorpus {
  parameter: string;
  label: string;
}

/**
 * The corpus as the notebooks should load it (a path made absolute, since kernels start at the project root; a
 * default name or npm: spec as given), and the label pages show instead of an absolute path. It is checked here,
 * before any kernel starts, by reading files only until the first non-empty one: the report process never holds
 * the whole corpus (each kernel loads what it needs), so a 1 GB corpus is not in memory once more while they run.
 */
export function corpusFromSpec(spec: string): ReportCorpus {
  const path = isAbsolute(spec) ? spec : resolve(process.cwd(), spec);
  const isPath = existsSync(path);
  const parameter = isPath ? path : spec;
  // listing throws on a corpus with no .md/.txt file, and the stream on one whose files are all empty
  streamCorpus(parameter).docs().next();
  return { parameter, label: isPath && isAbsolute(spec) ? basename(path) : spec };
}

/**
 * `--queries headers|ict|FILE` checked against the corpus before any kernel starts: a corpus without headings, one
 * too small for ICT, or a labelled file none of whose questions can be placed fails now. The corpus is loaded for
 * this check only and dropped when it returns.
 */
export function checkQueries(given: string, queriesPath: string, corpus: ReportCorpus): void {
  const { docs } = loadCorpus(corpus.parameter);
  if (given === "headers" || given === "ict") {
    buildQuerySet(given, docs, { corpusName: corpus.label });
    return;
  }
  const set = loadLabelledSet(queriesPath, docs, { skipMalformed: true });
  if (set.queries.length === 0)
    throw new SeamlabError(`--queries ${given}: no question could be placed in --corpus ${corpus.label}.`);
}

/** The corpus's size in bytes from its listing (no file read): about its characters, for choosing threads. */
export function corpusBytes(spec: string): number {
  return listCorpus(spec).files.reduce((sum, file) => sum + statSync(file.path).size, 0);
}
