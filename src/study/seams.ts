// Real overlap per seam for several splitters at one size/overlap: the rows behind notebook 01.
import type { Doc } from "../core/types";
import type { DocumentSample } from "../corpus/sample";
import { measureSplitterConfig, type ConfigMeasurement } from "../measure/split-and-measure";
import { straddlingPairs } from "../measure/pairs";
import { measureSeams } from "../measure/seams";
import { splitCorpus } from "../splitters/registry";
import { paragraphRegions } from "../text/paragraphs";
import { documentShareInterval, sampleForShares, zeroSeamShare, type SampleOptions } from "./sampling";

export type SampledMeasurement = ConfigMeasurement & { sample: DocumentSample };

/** Measures each splitter on one document sample (auto: sized so each zero-overlap share's CI is about ±1 point). */
export function measureSplitters(
  docs: readonly Doc[],
  splitters: readonly string[],
  size: number,
  overlap: number,
  options: SampleOptions = {},
): SampledMeasurement[] {
  const sample = sampleForShares(docs, options, (trial) =>
    splitters.map((splitter) =>
      zeroSeamShare(trial, measureSeams(trial, splitCorpus(trial, { splitter, size, overlap }))),
    ),
  );
  const pairs = straddlingPairs(sample.docs);
  return splitters.map((splitter) => ({
    ...measureSplitterConfig(sample.docs, { splitter, size, overlap }, { pairs }),
    sample,
  }));
}

/** One row per seam: `{splitter, overlap}` in characters, for `overlapHistogram`. */
export function seamOverlapRows(measurements: readonly ConfigMeasurement[]): { splitter: string; overlap: number }[] {
  return measurements.flatMap((m) => m.seams.map((seam) => ({ splitter: m.config.splitter, overlap: seam.overlap })));
}

/** The summary table; without a sample, the CI's documents are those that have seams, unstratified. */
export function seamSummaryRows(
  measurements: readonly (ConfigMeasurement & { sample?: DocumentSample })[],
): Record<string, string | number | null>[] {
  return measurements.map((m) => {
    const s = m.summary;
    const docs = m.sample?.docs ?? [...new Set(m.seams.map((seam) => seam.doc))].map((id) => ({ id, text: "" }));
    const ci = documentShareInterval(zeroSeamShare(docs, m.seams), m.sample?.strata);
    return {
      splitter: m.config.splitter,
      documents: docs.length,
      chunks: s.chunks,
      seams: s.seams,
      "zero-overlap seams (%)": s.zeroOverlapPct,
      "95% CI low (%)": 100 * ci.low,
      "95% CI high (%)": 100 * ci.high,
      "mean overlap (chars)": s.meanOverlap,
      "median overlap (chars)": s.medianOverlap,
      "mean / nominal": s.realisedOverlapRatio,
      "index size / corpus": s.indexRatio,
    };
  });
}

/** Backward-pointing openers after zero-overlap seams: one row per splitter that has any. */
export function openerRows(measurements: readonly ConfigMeasurement[]): Record<string, string | number>[] {
  return measurements.map((m) => ({
    splitter: m.config.splitter,
    "zero-overlap seams": m.openers.zeroOverlapSeams,
    "open with a backward word": m.openers.backwardOpeners,
    "share (%)": m.openers.zeroOverlapSeams === 0 ? 0 : (100 * m.openers.backwardOpeners) / m.openers.zeroOverlapSeams,
    "most frequent": m.openers.byWord
      .slice(0, 4)
      .map((w) => `${w.word} (${w.count})`)
      .join(", "),
  }));
}

/** A few openers of chunks that start with a backward-pointing word after a zero-overlap seam. */
export function openerSampleRows(measurement: ConfigMeasurement): Record<string, string | number>[] {
  return measurement.openers.samples.map((s) => ({
    doc: s.doc,
    seam: s.index + 1,
    word: s.word,
    "next chunk opens with": s.text,
  }));
}

/** Paragraph lengths for a histogram, capped at `cap` so a few very long paragraphs do not squash the chart. */
export function paragraphLengthRows(docs: readonly Doc[], cap: number): { series: string; length: number }[] {
  return docs.flatMap((doc) =>
    paragraphRegions(doc.text).map((region) => ({
      series: "paragraphs",
      length: Math.min(cap, region.end - region.start),
    })),
  );
}
