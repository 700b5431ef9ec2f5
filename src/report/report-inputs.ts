// `seamlab report`'s inputs, checked before any kernel starts.
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
 * The corpus as the notebooks should load it (a path made absolute: kernels start at the project root) and the label
 * pages show. Checked by reading only until the first non-empty file: the report process never holds the corpus.
 */
export function corpusFromSpec(spec: string): ReportCorpus {
  const path = isAbsolute(spec) ? spec : resolve(process.cwd(), spec);
  const isPath = existsSync(path);
  const parameter = isPath ? path : spec;
  streamCorpus(parameter).docs().next();
  return { parameter, label: isPath && isAbsolute(spec) ? basename(path) : spec };
}

/** `--queries headers|ict|FILE` checked against the corpus (loaded for this check only). */
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
