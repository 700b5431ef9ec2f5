// `seamlab seams --sample`: a first pass keeps only ids and lengths, then only a seeded stratified sample is split and
// measured (through the per-document cache); `auto` grows it until both headline shares reach the target CI width.
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

export type SampledSeams = Awaited<ReturnType<typeof measureSampledSeams>>;

interface SampledSeamsHooks {
  /** `auto` may run several passes: the pilot, then larger samples. */
  onPass?: (docs: number, pass: number) => void;
  onMeasured?: (part: DocSeams, cached: boolean) => void;
  /** One document of the result, in corpus order, once the sample is settled. */
  onResult?: (part: DocSeams) => void;
}

/** Per measured document: zero-overlap seams of seams, and sentence pairs kept of pairs. */
export function seamShares(parts: readonly DocSeams[]) {
  return {
    zeroSeams: parts.map((part) => part.overlaps.filter((overlap) => overlap === 0).length),
    seams: parts.map((part) => part.overlaps.length),
    kept: parts.map((part) => part.kept),
    pairs: parts.map((part) => part.pairs),
  };
}

/** Documents the shares need for a 95% CI of ±`halfWidth` (the larger of the two). */
export function documentsNeeded(shares: ReturnType<typeof seamShares>, halfWidth: number, strata: readonly string[]) {
  return Math.max(
    clusterSampleSize(shares.zeroSeams, shares.seams, halfWidth, strata),
    clusterSampleSize(shares.kept, shares.pairs, halfWidth, strata),
  );
}

/** Measures the sample `request` asks for; `stream` is iterated once per pass. */
export async function measureSampledSeams(
  stream: CorpusStream,
  config: SplitterConfig,
  options: CorpusSeamsOptions,
  request: SampleRequest,
  hooks: SampledSeamsHooks = {},
  seed = 1,
) {
  let passes = 0;
  // A later, larger pass reads this run's own documents back from the cache: they still count as measured here.
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
  // Characters of the whole corpus, measured or not.
  const corpusChars = outlines.reduce((sum, doc) => sum + doc.length, 0);
  return { measured, sample, shares: seamShares(parts), corpusChars, skippedEmpty };
}
