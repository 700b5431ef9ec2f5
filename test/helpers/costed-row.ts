// A grid row with just what the sweep's curves and verdicts read: per-query hits ("1" hit, "0" miss, query order),
// its chunks (also its index cost, so fewer chunks is cheaper) and the config that names it.
import type { CostedRow } from "../../src/experiment/run";

export function costedRow(
  overlap: number,
  hits: string,
  chunks: number,
  { size = 1000, splitter = "window" }: { size?: number; splitter?: string } = {},
): CostedRow {
  const h = [...hits].filter((c) => c === "1").length;
  return {
    label: `${splitter} ${size}/${overlap}`,
    key: `${size}/${overlap}`,
    config: { splitter: { splitter, size, overlap, unit: "chars" }, retrieval: { k: 5, finalK: 5 } },
    seams: { chunks },
    retrieval: {
      hitRate: h / hits.length,
      hitRateCI: { low: 0, high: 1 },
      recallAtK: h / hits.length,
      recallAtKCI: { low: 0, high: 1 },
    },
    tokensEmbedded: chunks,
    hits,
    cost: { storageBytes: chunks, tokensRatio: 1, storageRatio: 1, tokensEmbedded: chunks, embeddingCost: 0 },
  } as unknown as CostedRow;
}
