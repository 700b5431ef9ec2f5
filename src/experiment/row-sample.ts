// The document sample a sweep measures seam damage and embedded tokens on (`--sample`). Retrieval always indexes
// every document; only these two measurements, whose cost grows with the text (sentence segmentation, cl100k
// counting) and whose per-document caches grow with it too, are taken on a seeded stratified sample.
import type { Doc } from "../core/types";
import { resolveSample, type SampleRequest } from "../corpus/sample";
import { seamDamageByDoc, straddlingPairs } from "../measure/pairs";
import { splitCorpus } from "../splitters/registry";
import { clusterSampleSize } from "../stats/cluster";
import type { ExperimentConfig } from "./grid";

/** Which documents a sweep row's damage and token figures come from (positions in the sweep's docs, ascending). */
export interface RowSample {
  indexes: number[];
  /** Stratum of each sampled document (folder × size quartile), for the cluster bootstrap. */
  strata: string[];
  population: number;
  /** "a seeded sample of 412 of 9,515 documents, stratified by folder and size (auto: ...)". */
  description: string;
}

/**
 * Corpora up to this many characters are measured whole under `auto`: every document costs a few seconds there,
 * and a sweep on a small corpus (the default ones) keeps giving the same rows as before sampling existed.
 */
export const wholeCorpusChars = 20_000_000;

/**
 * The sample for a sweep's configs, or undefined when every document is measured: `all`, `auto` on a corpus of at
 * most `wholeUpTo` characters (default `wholeCorpusChars`), or a count not below the corpus's documents. `auto`
 * grows the sample until the share of sentence pairs kept across paragraph breaks has a 95% CI of about
 * ±halfWidth for every splitter config.
 */
export function resolveRowSample(
  docs: readonly Doc[],
  configs: readonly ExperimentConfig[],
  request: SampleRequest,
  seed = 1,
  wholeUpTo = wholeCorpusChars,
): RowSample | undefined {
  if (request.kind === "all") return undefined;
  if (request.kind === "count" && request.count >= docs.length) return undefined;
  if (request.kind === "auto" && docs.reduce((sum, doc) => sum + doc.text.length, 0) <= wholeUpTo) return undefined;
  const splitterConfigs = [...new Map(configs.map((c) => [JSON.stringify(c.splitter), c.splitter])).values()];
  const sample = resolveSample(
    docs,
    request,
    (trial) => {
      if (request.kind !== "auto") return 0;
      const pairs = straddlingPairs(trial.docs);
      let needed = 0;
      for (const config of splitterConfigs) {
        const byDoc = seamDamageByDoc(trial.docs, splitCorpus(trial.docs, config), pairs);
        needed = Math.max(needed, clusterSampleSize(byDoc.kept, byDoc.pairs, request.halfWidth, trial.strata));
      }
      return needed;
    },
    seed,
  );
  if (sample.indexes.length >= docs.length) return undefined;
  return {
    indexes: sample.indexes,
    strata: sample.strata,
    population: sample.population,
    description: sample.description,
  };
}

const sampledDocs = new WeakMap<readonly Doc[], { key: string; docs: Doc[] }>();

/**
 * The sampled documents as one array per docs array and sample, so the per-docs caches of rows.ts (straddling
 * pairs, token pieces) are built once per sweep rather than once per config.
 */
export function docsOfSample(docs: readonly Doc[], sample: RowSample): Doc[] {
  const key = sample.indexes.join(",");
  const known = sampledDocs.get(docs);
  if (known && known.key === key) return known.docs;
  const picked = sample.indexes.map((i) => {
    if (!(i >= 0 && i < docs.length)) throw new Error(`row sample: position ${i} is outside the ${docs.length} docs`);
    return docs[i];
  });
  sampledDocs.set(docs, { key, docs: picked });
  return picked;
}
