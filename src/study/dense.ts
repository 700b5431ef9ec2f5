/** The grid's embedder spec for the local `lsa` model (TF-IDF + SVD fitted on each config's chunks). */
export function lsaSpec(dimensions: number): { kind: "lsa"; dimensions: number } {
  return { kind: "lsa", dimensions };
}

/** The embedder's name as the retriever reported it ("lsa-128 (...)" out of "dense(lsa-128 (...), cosine)"), else
 * a description from the requested dimensions (the dense reranker names lsa without its rank). */
export function embedderNameOf(retrieverName: string, requestedDimensions: number): string {
  const match = /lsa-\d+ \([^()]*\)/.exec(retrieverName);
  if (match) return match[0];
  return `lsa-${requestedDimensions} requested (TF-IDF+SVD fitted on each config's chunks; not a neural model)`;
}
