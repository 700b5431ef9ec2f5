import { indexDrawKernel } from "./index-draws";

/** mulberry32: every random choice in seamlab is seeded, so the same seed gives byte-identical results. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fills `out` with `Math.floor(random() * n)` for successive draws of `seededRandom(seed)`, continuing from one call
 * to the next. Inline (a closure returning a double boxes every draw), or in WebAssembly where it runs.
 */
export function seededIndexFiller(seed: number): (out: Int32Array, n: number) => void {
  let state = seed >>> 0;
  const kernel = indexDrawKernel();
  if (kernel) return (out, n) => void (state = kernel(state, out, n));
  return (out, n) => {
    let s = state;
    for (let i = 0; i < out.length; i++) {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      out[i] = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    }
    state = s;
  };
}

/** `count` distinct indices of 0..n-1 (seeded partial Fisher–Yates), ascending so a sample keeps the input's order. */
export function sampleIndices(n: number, count: number, seed: number): number[] {
  if (count >= n) return Array.from({ length: n }, (_, i) => i);
  const random = seededRandom(seed);
  const pool = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (n - i));
    const swap = pool[i];
    pool[i] = pool[j];
    pool[j] = swap;
  }
  return Array.from(pool.subarray(0, Math.max(0, count))).sort((a, b) => a - b);
}
