import { createHash } from "node:crypto";
import { SeamlabError } from "../core/errors";
import { sampleIndices } from "../core/random";
import { randomizedSvd } from "./randomized-svd";
import { interleaveCsrRows, multiplyDense } from "./sparse";
import {
  countTermsWithin,
  fitTfidfFrequencies,
  tfidfCountRows,
  tfidfMatrix,
  TfidfOptions,
  type TermCounts,
} from "./tfidf";
import { Embedder, emptyInputReport, normaliseInPlace, type CsrMatrix } from "./types";
import { thousands } from "../stats/format";

export interface LsaOptions extends TfidfOptions {
  /** Requested dimensions (fewer when the corpus has lower rank; the name says so). Default 256. */
  dimensions?: number;
  seed?: number;
  /** The flag the dimensions came from: asking for more than the data has is refused naming it. */
  dimensionsFlag?: string;
  /**
   * Fit the basis on a seeded sample of at most this many texts (`Infinity`: all); vocabulary and idf still come
   * from every text. The SVD's cost grows with rows × dimensions² (110k sentences: ~28 s; 4000: about a second).
   */
  fitSample?: number;
  /** The most (term, text) counts kept for embedding the fitted texts; changes memory and time, never the model. */
  keptCounts?: number;
}

/** Default `fitSample` (bench/lsa-sample.ts compares it with a full fit). */
export const defaultLsaFitSample = 4000;

/** (term, text) counts kept (8 bytes each) so the fitted texts are not tokenized again when embedded. */
const keptCountsLimit = 32_000_000;

/** LSA: TF-IDF rows projected on the corpus's top right singular vectors; it knows only this corpus's co-occurrence. */
export function fitLsa(texts: string[], options: LsaOptions = {}): Embedder {
  const { dimensions = 256, seed = 42, fitSample = defaultLsaFitSample } = options;
  const powerIterations = 2;
  const oversample = 10;
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new SeamlabError(`lsa: dimensions must be a whole number >= 1, got ${dimensions}.`);
  }
  if (!(fitSample === Infinity || (Number.isInteger(fitSample) && fitSample >= 1))) {
    throw new SeamlabError(`lsa: fitSample must be a whole number >= 1 or Infinity, got ${fitSample}.`);
  }
  if (texts.length === 0) throw new SeamlabError("lsa: cannot fit on an empty corpus (no chunks to learn from).");
  const frequencies = countTermsWithin(texts, options.keptCounts ?? keptCountsLimit);
  const counted = frequencies.counts;
  const fittedTfidf = fitTfidfFrequencies(frequencies, options);
  const model = fittedTfidf.model;
  if (model.idf.length === 0) {
    throw new SeamlabError("lsa: the corpus has no words to learn from (every chunk is empty or punctuation).");
  }
  const most = Math.min(texts.length, model.idf.length) - 1;
  if (options.dimensionsFlag && dimensions > most) {
    throw new SeamlabError(
      `${options.dimensionsFlag} ${dimensions} is more than this data supports: dimensions must be fewer than the ` +
        `${texts.length} chunks and the ${model.idf.length} terms fitted on, so at most ${Math.max(1, most)}.`,
    );
  }
  const sampled = texts.length > fitSample;
  const basisRows = sampled ? sampleIndices(texts.length, fitSample, seed) : undefined;
  const basis = counted
    ? tfidfCountRows(fittedTfidf, counted, basisRows)
    : tfidfMatrix(model, basisRows ? basisRows.map((row) => texts[row]) : [...texts]);
  const svd = randomizedSvd(basis, { rank: dimensions, oversample, powerIterations, seed });
  let kept: { texts: string[]; counts: TermCounts; rowOf?: Map<string, number> } | undefined = counted
    ? { texts: texts.slice(), counts: { ...counted, terms: [] } }
    : undefined;
  /** TF-IDF rows of `batch`: a fitted text's from its kept counts, any other text tokenized (the same rows). */
  const rowsOf = (batch: string[]): CsrMatrix => {
    if (!kept) return tfidfMatrix(model, batch);
    const { texts: keptTexts, counts } = kept;
    if (batch.length === keptTexts.length && batch.every((text, i) => text === keptTexts[i])) {
      // A dense index embeds exactly what it fitted on, once: the counts are done with.
      kept = undefined;
      return tfidfCountRows(fittedTfidf, counts);
    }
    // A dense reranker's candidates beside its query.
    if (!kept.rowOf) kept.rowOf = new Map(keptTexts.map((text, row) => [text, row]));
    const rowOf = kept.rowOf;
    const at = batch.map((text) => rowOf.get(text) ?? -1);
    const fromKept = at.map((row) => row >= 0);
    if (!fromKept.some(Boolean)) return tfidfMatrix(model, batch);
    const fresh = batch.filter((_, i) => !fromKept[i]);
    const keptRows = at.filter((row) => row >= 0);
    return interleaveCsrRows(tfidfCountRows(fittedTfidf, counts, keptRows), tfidfMatrix(model, fresh), fromKept);
  };
  const rank = svd.rank;
  const fitted = createHash("sha256");
  for (const text of texts) fitted.update(`${text.length}:`).update(text);
  const settings =
    `d=${dimensions},q=${powerIterations},p=${oversample},seed=${seed},` +
    `minDf=${options.minDocumentFrequency ?? 2},` +
    `maxVocab=${options.maxVocabulary ?? 100_000}${sampled ? `,fitSample=${fitSample}` : ""}`;
  const requested = rank < dimensions ? `; ${dimensions} requested, corpus rank allows ${rank}` : "";
  const basisNote = sampled
    ? `; basis from a seeded sample of ${thousands(fitSample)} of ${thousands(texts.length)} texts`
    : "";
  const inputs = emptyInputReport();
  return {
    name: `lsa-${rank} (TF-IDF+SVD fitted on this corpus${requested}${basisNote}; not a neural model)`,
    id: `lsa:${settings}:corpus=${fitted.digest("hex")}`,
    dimensions: rank,
    maxInputTokens: Infinity,
    inputs,
    async embed(batch: string[]): Promise<Float32Array[]> {
      const projected = multiplyDense(rowsOf(batch), svd.right, rank);
      inputs.embedded += batch.length;
      const out: Float32Array[] = [];
      for (let i = 0; i < batch.length; i++) {
        out.push(normaliseInPlace(Float32Array.from(projected.subarray(i * rank, (i + 1) * rank))));
      }
      return out;
    },
  };
}
