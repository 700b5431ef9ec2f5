import { SeamlabError } from "../core/errors";

// What overlap costs, also as ratios to the zero-overlap config of the same family: a ratio does not depend on the
// price list of the day.
export interface CostOptions {
  /** Per million embedded tokens, any currency. Default 0.13 (text-embedding-3-large, as the seeds quote). */
  pricePerMillionTokens?: number;
  /** Default 1536. */
  dims?: number;
  /** Default 4 (float32). */
  bytesPerDim?: number;
}

export type CostWithRatios = ReturnType<typeof costsWithRatios>[number];

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value >= 0))
    throw new SeamlabError(`cost model: ${name} must be a finite number >= 0, got ${value}.`);
  return value;
}

export function costOf(chunks: number, tokensEmbedded: number, options: CostOptions = {}) {
  const price = positive(options.pricePerMillionTokens ?? 0.13, "pricePerMillionTokens");
  const dims = positive(options.dims ?? 1536, "dims");
  const bytes = positive(options.bytesPerDim ?? 4, "bytesPerDim");
  return {
    chunks,
    tokensEmbedded,
    embeddingCost: (tokensEmbedded / 1e6) * price,
    storageBytes: chunks * dims * bytes, // vectors only, no index overhead
  };
}

function ratio(value: number, base: number | undefined): number | null {
  if (base === undefined) return null;
  if (base === 0) return value === 0 ? 1 : null;
  return value / base;
}

/** Costs with ratios to the overlap-0 member of each config's family (`group`: everything but overlap). */
export function costsWithRatios<T>(
  items: readonly T[],
  describe: (item: T) => { group: string; overlap: number; chunks: number; tokensEmbedded: number },
  options: CostOptions = {},
) {
  const described = items.map(describe);
  const baselines = new Map<string, ReturnType<typeof costOf>>();
  for (const d of described)
    if (d.overlap === 0 && !baselines.has(d.group)) baselines.set(d.group, costOf(d.chunks, d.tokensEmbedded, options));
  return described.map((d) => {
    const cost = costOf(d.chunks, d.tokensEmbedded, options);
    const base = baselines.get(d.group);
    // Each figure divided by the same at overlap 0; null without a zero-overlap baseline.
    return {
      ...cost,
      tokensRatio: ratio(cost.tokensEmbedded, base?.tokensEmbedded),
      costRatio: ratio(cost.embeddingCost, base?.embeddingCost),
      storageRatio: ratio(cost.storageBytes, base?.storageBytes),
    };
  });
}
