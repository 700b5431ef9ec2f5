import type { Chunk, Doc } from "../core/types";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpus, unitOf, validateSplitterConfig } from "../splitters/registry";
import { lengthFunctionFor } from "../text/tokens";
import { measureBackwardOpeners } from "./openers";
import { measureSeamDamage, straddlingPairs, type StraddlingPair } from "./pairs";
import { measureParagraphBudget } from "./paragraphs";
import { measureSplit } from "./summary";

/** Everything seamlab measures about one corpus split with one config. */
export type ConfigMeasurement = ReturnType<typeof measureSplitterConfig>;

/**
 * `limit` in the config's unit (default: the chunk size); `pairs`: straddling pairs of `docs`, shared by the configs
 * of one corpus; `skipParagraphs`, as the paragraph budget counts tokens of every paragraph in token units.
 */
export function measureSplitterConfig(
  docs: readonly Doc[],
  config: SplitterConfig,
  options: { limit?: number; pairs?: StraddlingPair[]; chunks?: Chunk[]; skipParagraphs?: boolean } = {},
) {
  validateSplitterConfig(config);
  const unit = unitOf(config);
  const lengthOf = lengthFunctionFor(unit, config.encoding);
  const chunks = options.chunks ?? splitCorpus(docs as Doc[], config);
  const { summary, seams } = measureSplit(docs, chunks, {
    nominalOverlap: config.overlap,
    unit,
    limit: options.limit ?? config.size,
    countTokens: unit === "tokens" ? lengthOf : undefined,
  });
  return {
    config,
    chunks,
    seams,
    summary,
    seamDamage: measureSeamDamage(docs, chunks, options.pairs ?? straddlingPairs(docs)),
    openers: measureBackwardOpeners(docs, chunks, seams),
    paragraphs: options.skipParagraphs
      ? measureParagraphBudget([], config.overlap)
      : measureParagraphBudget(docs, config.overlap, lengthOf),
  };
}
