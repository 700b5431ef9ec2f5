/**
 * Turns texts into vectors. Every embedder is honest about what it is (`name` appears on every chart and table
 * that shows its results) and about inputs it could not take whole (`inputs`).
 */
export interface Embedder {
  /** Human-readable and honest, e.g. "lsa-256 (TF-IDF+SVD fitted on this corpus; not a neural model)". */
  name: string;
  /**
   * A stable identity for caching: changes whenever the same text could get a different vector
   * (model, dimensions, fitted corpus, truncation policy).
   */
  id: string;
  dimensions: number;
  /** The longest input the embedder takes whole, in its own tokens (Infinity when there is no limit). */
  maxInputTokens: number;
  /** Embeds in batches; returns one vector per text, in order. Vectors are L2-normalised. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Running counts of what happened to inputs, so over-long inputs are reported, never silently cut. */
  inputs: InputReport;
}

/** What an embedder does with an input longer than `maxInputTokens`. */
export type OverLimitPolicy = "truncate" | "reject";

/** Counts kept by an embedder across all `embed` calls. */
export interface InputReport {
  /** Texts embedded (cache hits not included). */
  embedded: number;
  /** Texts longer than the embedder's limit (each was truncated, or the call was rejected). */
  overLimit: number;
  /** Of those, how many were truncated to the limit. */
  truncated: number;
  /** The longest input seen, in the embedder's tokens. */
  longestTokens: number;
}

export function emptyInputReport(): InputReport {
  return { embedded: 0, overLimit: 0, truncated: 0, longestTokens: 0 };
}

/** One sentence for a table or chart caption saying what happened to over-long inputs. */
export function describeInputReport(embedder: Pick<Embedder, "name" | "maxInputTokens" | "inputs">): string {
  const r = embedder.inputs;
  if (!Number.isFinite(embedder.maxInputTokens))
    return `${embedder.name}: ${r.embedded} texts embedded (no input limit).`;
  if (r.overLimit === 0)
    return `${embedder.name}: ${r.embedded} texts embedded, none over the ${embedder.maxInputTokens}-token limit.`;
  return (
    `${embedder.name}: ${r.embedded} texts embedded; ${r.overLimit} over the ${embedder.maxInputTokens}-token limit ` +
    `(longest ${r.longestTokens}), ${r.truncated} truncated to the limit.`
  );
}

/** Scales a vector to unit length in place (a zero vector stays zero); returns it. */
export function normaliseInPlace(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < vector.length; i++) vector[i] *= inv;
  }
  return vector;
}

/** Cosine similarity of two vectors of equal length (0 when either is zero). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
