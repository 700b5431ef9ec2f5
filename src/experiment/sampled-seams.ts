/**
 * `seamlab seams --sample`: seam statistics of a streamed corpus measured on a seeded document sample, stratified
 * by folder and length (corpus/sample). Sampling needs every document's length, so a first pass reads the corpus
 * once keeping only ids and lengths (one text in memory at a time); then only the sampled documents are split and
 * measured, through the per-document cache. `auto` measures a pilot, asks how many documents the widest of the two
 * headline shares (zero-overlap seams, sentence pairs kept) needs for the target CI half-width, and grows the
 * sample until it has them; the last sample measured is the result, so nothing is measured twice in one run.
 *
 * `all` is one streaming pass over every document, exactly what an unsampled run does.
 */
import type { Doc } from "../core/types";
import type { CorpusStream } from "../corpus/load";
import {
  documentSample,
  resolveSampleAsync,
  type DocOutline,
  type DocumentSample,
  type SampleRequest,
} from "../corpus/sample";
import type { DocSeams } from "../measure/doc-seams";
import type { SplitterConfig } from "../splitters/config";
import { clusterSampleSize } from "../stats/cluster";
import { measureCorpusSeams, type CorpusSeams, type CorpusSeamsOptions } from "./doc-cache";

/** Per measured document (in `sample.docs` order): zero-overlap seams of seams, and sentence pairs kept of pairs. */
export interface SeamShares {
  zeroSeams: number[];
  seams: number[];
  kept: number[];
  pairs: number[];
}

export interface SampledSeams {
  measured: CorpusSeams;
  /** The documents measured (outlines: id and length), with their strata and a description. */
  sample: DocumentSample<DocOutline>;
  shares: SeamShares;
  /** Characters of the whole corpus (the sample's population), measured or not. */
  corpusChars: number;
  /** Empty files of the corpus, skipped (counted in the pass that read every file). */
  skippedEmpty: number;
}

export interface SampledSeamsHooks {
  /** A measuring pass starts over `docs` documents (auto may run several: the pilot, then larger samples). */
  onPass?: (docs: number, pass: number) => void;
  /** One document measured (or taken from the cache) in the current pass. */
  onMeasured?: (part: DocSeams, cached: boolean) => void;
  /** One document of the result, in corpus order, once the sample is settled (e.g. per-seam output). */
  onResult?: (part: DocSeams) => void;
}

/** The per-document shares of measured parts. */
export function seamShares(parts: readonly DocSeams[]): SeamShares {
  const shares: SeamShares = { zeroSeams: [], seams: [], kept: [], pairs: [] };
  for (const part of parts) {
    let zero = 0;
    for (const overlap of part.overlaps) if (overlap === 0) zero++;
    shares.zeroSeams.push(zero);
    shares.seams.push(part.overlaps.length);
    shares.kept.push(part.kept);
    shares.pairs.push(part.pairs);
  }
  return shares;
}

/** Documents the shares need for a 95% CI of ±`halfWidth` (the larger of the two; see `clusterSampleSize`). */
export function documentsNeeded(shares: SeamShares, halfWidth: number, strata: readonly string[]): number {
  return Math.max(
    clusterSampleSize(shares.zeroSeams, shares.seams, halfWidth, strata),
    clusterSampleSize(shares.kept, shares.pairs, halfWidth, strata),
  );
}

/** Measures the sample `request` asks for (see the module comment). `stream` is iterated once per pass. */
export async function measureSampledSeams(
  stream: CorpusStream,
  config: SplitterConfig,
  options: CorpusSeamsOptions,
  request: SampleRequest,
  hooks: SampledSeamsHooks = {},
  seed = 1,
): Promise<SampledSeams> {
  let passes = 0;
  // Documents this run measured itself: a later, larger pass reads them back from the cache, but they count as
  // measured in this run, not as "from the cache" (a first run's pilot is not a cache hit).
  const measuredHere = new Set<string>();
  const measure = async (docs: Iterable<Doc>, count: number) => {
    hooks.onPass?.(count, ++passes);
    const parts: DocSeams[] = [];
    let ownCache = 0;
    const measured = await measureCorpusSeams(docs, config, {
      ...options,
      onDoc(part, cached) {
        parts.push(part);
        if (!cached) measuredHere.add(part.doc);
        else if (measuredHere.has(part.doc)) ownCache++;
        hooks.onMeasured?.(part, cached);
      },
    });
    return {
      measured: { ...measured, computed: measured.computed + ownCache, cached: measured.cached - ownCache },
      parts,
    };
  };

  if (request.kind === "all") {
    const { measured, parts } = await measure(stream.docs(), stream.files.length);
    for (const part of parts) hooks.onResult?.(part);
    const outlines = parts.map((part) => ({ id: part.doc, length: part.chars }));
    const sample = documentSample(outlines, outlines.length, "", seed);
    const corpusChars = measured.summary.chars;
    return { measured, sample, shares: seamShares(parts), corpusChars, skippedEmpty: stream.skippedEmpty };
  }

  const outlines: DocOutline[] = [];
  for (const doc of stream.docs()) outlines.push({ id: doc.id, length: doc.text.length });
  const skippedEmpty = stream.skippedEmpty;
  let last: { ids: string; measured: CorpusSeams; parts: DocSeams[] } | undefined;
  const measureSample = async (sample: DocumentSample<DocOutline>) => {
    const ids = sample.docs.map((d) => d.id);
    const key = ids.join("\n");
    if (last?.ids !== key) last = { ids: key, ...(await measure(stream.docs(new Set(ids)), ids.length)) };
    return last;
  };
  const sample = await resolveSampleAsync(
    outlines,
    request,
    async (trial) => {
      const { parts } = await measureSample(trial);
      return request.kind === "auto" ? documentsNeeded(seamShares(parts), request.halfWidth, trial.strata) : 0;
    },
    seed,
  );
  const { measured, parts } = await measureSample(sample);
  for (const part of parts) hooks.onResult?.(part);
  const corpusChars = outlines.reduce((sum, doc) => sum + doc.length, 0);
  return { measured, sample, shares: seamShares(parts), corpusChars, skippedEmpty };
}
