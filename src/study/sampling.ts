// Document samples for the seam statistics of notebooks 01 and 02, and 95% CIs of shares counted per document.
import type { Doc } from "../core/types";
import { parseSampleRequest, resolveSample, type DocumentSample, type SampleRequest } from "../corpus/sample";
import { wilsonInterval } from "../stats/proportion";
import { clusterRatioInterval, clusterSampleSize } from "../stats/cluster";
import type { Seam } from "../measure/seams";

/** A share counted per document: numerators[i] of denominators[i] in document i. */
export type PerDocumentShare = ReturnType<typeof zeroSeamShare>;

export function zeroSeamShare(docs: readonly Doc[], seams: readonly Seam[]) {
  const position = new Map(docs.map((doc, i) => [doc.id, i]));
  const numerators = new Array<number>(docs.length).fill(0);
  const denominators = new Array<number>(docs.length).fill(0);
  for (const seam of seams) {
    const at = position.get(seam.doc);
    if (at === undefined) continue;
    denominators[at]++;
    if (seam.overlap === 0) numerators[at]++;
  }
  return { numerators, denominators };
}

export interface SampleOptions {
  /** "auto" (default: sized for a ±1-point CI), "auto:H", "all", a document count, or a parsed request. */
  sample?: string | number | SampleRequest;
  seed?: number;
}

/** The documents to measure: all, a count, or (auto) as many as the widest of `sharesOf`'s shares needs. */
export function sampleForShares(
  docs: readonly Doc[],
  options: SampleOptions,
  sharesOf: (docs: Doc[]) => PerDocumentShare[],
): DocumentSample {
  const request = typeof options.sample === "object" ? options.sample : parseSampleRequest(options.sample, "sample");
  return resolveSample(
    docs,
    request,
    (trial) => {
      if (request.kind !== "auto") return 0;
      const sizes = sharesOf(trial.docs).map((share) =>
        clusterSampleSize(share.numerators, share.denominators, request.halfWidth, trial.strata),
      );
      return Math.max(0, ...sizes);
    },
    options.seed,
  );
}

/** 95% CI of a share counted in documents: a cluster bootstrap, widened to Wilson's (few documents show no variation). */
export function documentShareInterval(share: PerDocumentShare, strata?: readonly string[], seed?: number) {
  const y = share.numerators.reduce((s, k) => s + k, 0);
  const x = share.denominators.reduce((s, k) => s + k, 0);
  if (x === 0) return { low: 0, high: 0 };
  const cluster = clusterRatioInterval(share.numerators, share.denominators, strata, { seed });
  const wilson = wilsonInterval(y, x);
  return { low: Math.min(cluster.low, wilson.low), high: Math.max(cluster.high, wilson.high) };
}
