import type { Chunk, Doc } from "../core/types";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpus, unitOf, validateSplitterConfig } from "../splitters/registry";
import { lengthFunctionFor } from "../text/tokens";
import { measureBackwardOpeners, type BackwardOpeners } from "./openers";
import { measureSeamDamage, straddlingPairs, type SeamDamage, type StraddlingPair } from "./pairs";
import { measureParagraphBudget, type ParagraphBudget } from "./paragraphs";
import type { Seam } from "./seams";
import { measureSplit, type SeamSummary } from "./summary";

/** Everything seamlab measures about one corpus split with one config. */
export interface ConfigMeasurement {
  config: SplitterConfig;
  chunks: Chunk[];
  seams: Seam[];
  summary: SeamSummary;
  seamDamage: SeamDamage;
  openers: BackwardOpeners;
  paragraphs: ParagraphBudget;
}

export interface ConfigMeasureOptions {
  /** Chunk length limit in the config's unit (default: the chunk size). */
  limit?: number;
  /** Straddling pairs of `docs`, when measuring many configs of one corpus (they depend on the text only). */
  pairs?: StraddlingPair[];
  /**
   * Chunks already split with `config` (e.g. by `splitCorpusAsync` for the semantic splitter); split here otherwise.
   */
  chunks?: Chunk[];
  /** Skip the paragraph budget (it counts tokens of every paragraph in token units). */
  skipParagraphs?: boolean;
}

/** Splits `docs` with `config` and measures seams, sizes, lost text, seam damage, openers and paragraphs. */
export function measureSplitterConfig(
  docs: readonly Doc[],
  config: SplitterConfig,
  options: ConfigMeasureOptions = {},
): ConfigMeasurement {
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
