// The dense sections of notebooks 03-05 name their embedder on every chart: these helpers build the `lsa` spec a
// grid config carries (plain JSON, so it is part of the cache key) and recover the embedder's honest name from a
// retriever name for subtitles.

/** The grid's embedder spec for the local `lsa` model (TF-IDF + SVD fitted on each config's chunks). */
export function lsaSpec(dimensions: number): { kind: "lsa"; dimensions: number } {
  return { kind: "lsa", dimensions };
}

/**
 * The embedder's name as the retriever reported it, e.g. "lsa-128 (TF-IDF+SVD fitted on this corpus; not a neural
 * model)" out of "dense(lsa-128 (...), cosine)"; when the name does not carry it (the dense reranker names lsa
 * without its rank), a description built from the requested dimensions.
 */
export function embedderNameOf(retrieverName: string, requestedDimensions: number): string {
  const match = /lsa-\d+ \([^()]*\)/.exec(retrieverName);
  if (match) return match[0];
  return `lsa-${requestedDimensions} requested (TF-IDF+SVD fitted on each config's chunks; not a neural model)`;
}
