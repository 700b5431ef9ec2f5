/** Turns texts into vectors, honest about what it is and about inputs it could not take whole. */
export interface Embedder {
  /** Shown on every chart and table of its results, e.g. "lsa-256 (TF-IDF+SVD fitted on this corpus; ...)". */
  name: string;
  /** Cache identity: changes whenever the same text could get a different vector. */
  id: string;
  dimensions: number;
  /** The longest input taken whole, in the embedder's tokens (Infinity when there is no limit). */
  maxInputTokens: number;
  /** One L2-normalised vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Running counts across `embed` calls, so over-long inputs are reported, never silently cut. */
  inputs: InputReport;
}

/** What an embedder does with an input longer than `maxInputTokens`. */
export type OverLimitPolicy = "truncate" | "reject";

export interface InputReport {
  /** Texts embedded (cache hits not included). */
  embedded: number;
  /** Texts over the limit (each truncated, or the call rejected). */
  overLimit: number;
  truncated: number;
  /** In the embedder's tokens. */
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

/** Scales a vector to unit length in place (a zero vector stays zero). */
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

/** A sparse matrix in compressed sparse row form (rows = texts, columns = terms); dense operands are row-major. */
export interface CsrMatrix {
  rows: number;
  cols: number;
  /** rowStart[i]..rowStart[i+1] index the non-zeros of row i in `colIndex`/`values`. */
  rowStart: Int32Array;
  colIndex: Int32Array;
  values: Float64Array;
}
