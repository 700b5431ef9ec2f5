// Real overlap per seam for several splitters at one size/overlap: the rows behind notebook 01, and the sentences it
// writes under them. Its repro is the smallest case that shows chunk_overlap is a maximum: paragraphs longer than the
// overlap budget (a recursive splitter only carries whole pieces over).
import type { Chunk, Doc } from "../core/types";
import type { DocumentSample } from "../corpus/sample";
import { measureSplitterConfig, type ConfigMeasurement } from "../measure/split-and-measure";
import { straddlingPairs } from "../measure/pairs";
import { measureSeams } from "../measure/seams";
import { splitCorpus, splitDoc } from "../splitters/registry";
import { paragraphRegions } from "../text/paragraphs";
import { thousands } from "../stats/format";
import { pct } from "./format";
import { documentShareInterval, sampleForShares, zeroSeamShare, type SampleOptions } from "./sampling";

/** Measures each splitter on one document sample (auto: sized so each zero-overlap share's CI is about ±1 point). */
export function measureSplitters(
  docs: readonly Doc[],
  splitters: readonly string[],
  size: number,
  overlap: number,
  options: SampleOptions = {},
): (ConfigMeasurement & { sample: DocumentSample })[] {
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

/** What the repro shows: the most text any chunk shares with its predecessor, against the configured overlap. */
export function reproFinding(repro: readonly ReproRow[], paragraphLength: number, overlap: number): string {
  const shared = repro.filter((r) => r.sharedWithPrevious !== null).map((r) => r.sharedWithPrevious as number);
  const chunks = repro.filter((r) => r.splitter === "langchain").length;
  const why =
    paragraphLength > overlap
      ? `Each paragraph (${paragraphLength} chars) is longer than the budget, so none is carried over.`
      : `The paragraphs fit the budget, so whole paragraphs are carried over.`;
  return (
    `Both splitters return ${chunks} chunks, and the most text any chunk shares with its predecessor is ` +
    `**${Math.max(0, ...shared)} characters** — against a configured overlap of ${overlap}. ` +
    why
  );
}

/** The first splitter's zero-overlap share with its CI, and its mean and median real overlap. */
export function zeroOverlapFinding(measured: readonly ConfigMeasurement[], overlap: number): string {
  const first = measured[0].summary;
  const zeroCI = seamSummaryRows(measured)[0];
  return (
    `With \`${measured[0].config.splitter}\`, **${first.zeroOverlapPct.toFixed(1)}% ` +
    `of ${thousands(first.seams)} seams share no text at all** ` +
    `(95% CI ${(zeroCI["95% CI low (%)"] as number).toFixed(1)}–${(zeroCI["95% CI high (%)"] as number).toFixed(1)}%). ` +
    `The mean overlap is ${thousands(first.meanOverlap)} characters and the median ${thousands(first.medianOverlap)}, ` +
    `${pct(first.realisedOverlapRatio ?? 0)} of the configured ${overlap}.`
  );
}

/** How many of the first splitter's zero-overlap seams open the next chunk with a backward-pointing word. */
export function openerFinding(measured: readonly ConfigMeasurement[]): string {
  const o = measured[0].openers;
  const share = pct(o.zeroOverlapSeams === 0 ? 0 : o.backwardOpeners / o.zeroOverlapSeams);
  return (
    `With \`${measured[0].config.splitter}\`, ${thousands(o.backwardOpeners)} chunks (${share} of its zero-overlap seams) ` +
    "open with a backward-pointing word."
  );
}

/** The share of paragraphs longer than the overlap budget (whole pieces only are carried over). */
export function paragraphBudgetFinding(measured: readonly ConfigMeasurement[], overlap: number): string {
  const budget = measured[0].paragraphs;
  return (
    `**${thousands(budget.overBudgetPct, 1)}% of ${thousands(budget.paragraphs)} ` +
    `paragraphs are longer than ${overlap} characters** ` +
    `(median ${thousands(budget.lengths.median)} chars): whenever one of them ends a chunk, nothing is carried into the next.`
  );
}

/** Renames the count axis of an `overlapHistogram` spec (it says "seams"; a paragraph histogram counts paragraphs). */
export function withCountTitle(spec: Record<string, unknown>, title: string): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(spec)) as { spec?: { layer?: { encoding?: { y?: { title?: string } } }[] } };
  const y = copy.spec?.layer?.[0]?.encoding?.y;
  if (y) y.title = title;
  return copy as Record<string, unknown>;
}

const WORDS = ["the", "whale", "sea", "ship", "crew", "rope", "deck", "wind", "oar", "mast", "harpoon", "captain"];

/** A paragraph of exactly `length` characters (words and spaces, ending in a full stop), deterministic per `seed`. */
export function fillerParagraph(length: number, seed: number): string {
  let text = "";
  for (let i = 0; text.length < length; i++) text += (i === 0 ? "" : " ") + WORDS[(i * 7 + seed * 5) % WORDS.length];
  return text.slice(0, length - 1).replace(/\s+$/, "x") + ".";
}

/** Three (or `count`) paragraphs of `paragraphLength` characters joined by "\n\n", as one document. */
export function reproDoc(paragraphLength = 599, count = 3): Doc {
  const paragraphs = Array.from({ length: count }, (_, i) => fillerParagraph(paragraphLength, i + 1));
  return { id: `${count}x${paragraphLength}-chars`, text: paragraphs.join("\n\n") };
}

/** `sharedWithPrevious`: characters the chunk shares with the previous one (from the spans). */
export type ReproRow = ReturnType<typeof reproRows>[number];

/** Splits the repro document with each splitter at size/overlap and lists the chunks with their real overlap. */
export function reproRows(doc: Doc, splitters: readonly string[], size: number, overlap: number) {
  return splitters.flatMap((splitter) => {
    const chunks: Chunk[] = splitDoc(doc, { splitter, size, overlap });
    return chunks.map(({ start, end, text }, i) => {
      const previous = i > 0 ? chunks[i - 1] : undefined;
      const sharedWithPrevious = previous
        ? Math.max(0, Math.min(previous.end, end) - Math.max(previous.start, start))
        : null;
      return { splitter, chunk: i + 1, start, end, length: text.length, sharedWithPrevious };
    });
  });
}
