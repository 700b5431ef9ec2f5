// `--sample`: seam damage and embedded tokens, whose cost grows with the text, are measured on a seeded stratified
// document sample; retrieval always indexes every document.
import { totalChars, type Doc } from "../core/types";
import { resolveSample, type DocumentSample, type SampleRequest } from "../corpus/sample";
import { seamDamageByDoc, straddlingPairs } from "../measure/pairs";
import { splitCorpus } from "../splitters/registry";
import { clusterSampleSize } from "../stats/cluster";
import type { ExperimentConfig } from "./grid";

/** A document sample without its documents (it crosses threads and goes into cache keys); `indexes` ascending. */
export type RowSample = Omit<DocumentSample, "docs">;

/** Corpora up to this many characters are measured whole under `auto` (a few seconds). */
export const wholeCorpusChars = 20_000_000;

/**
 * The sample for a sweep's configs, or undefined when every document is measured. `auto` grows it until the share
 * of sentence pairs kept has a 95% CI of about ±halfWidth for every splitter config.
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
  if (request.kind === "auto" && totalChars(docs) <= wholeUpTo) return undefined;
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
  const { indexes, strata, population, description } = sample;
  return { indexes, strata, population, description };
}

const sampledDocs = new WeakMap<readonly Doc[], { key: string; docs: Doc[] }>();

/** The sampled documents, one array per docs array and sample, so rows.ts's per-docs caches hold once per sweep. */
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
