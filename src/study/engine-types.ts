// The shapes of the grid runner's results, restated from modules tslab can compile (see runtime.ts for why the
// runner itself is loaded through tsx). They mirror `CostedRow` and `SweepResult` in src/experiment.
import type { CostWithRatios } from "../experiment/cost";
import type { ExperimentConfig } from "../experiment/grid";
import type { KneeReport } from "../experiment/knee";
import type { SeamDamage } from "../measure/pairs";
import type { Seam } from "../measure/seams";
import type { BackwardOpeners } from "../measure/openers";
import type { ParagraphBudget } from "../measure/paragraphs";
import type { Chunk } from "../core/types";
import type { SplitterConfig } from "../splitters/config";
import type { SeamSummary } from "../measure/summary";
import type { RetrievalSummary } from "../retrieval/evaluate";

export type GridRowLike = {
  label: string;
  config: ExperimentConfig;
  seams: SeamSummary;
  damage: SeamDamage;
  retrieval: RetrievalSummary;
  tokensEmbedded: number;
  hits: string;
  cost: CostWithRatios;
};

export type SweepPointLike = {
  x: number;
  y: number;
  low?: number;
  high?: number;
  overlap: number;
  chunks: number;
  tokensRatio: number | null;
  storageRatio: number | null;
};

export type SweepCurveLike = {
  splitter: string;
  size: number;
  k: number;
  finalK: number;
  reranker: string;
  points: SweepPointLike[];
  knee: KneeReport;
};

export type SweepResultLike = {
  rows: GridRowLike[];
  curves: SweepCurveLike[];
  knee: KneeReport;
  cached: number;
  computed: number;
  elapsedMs: number;
};

/** Mirrors `ConfigMeasurement` in src/measure/split-and-measure.ts. */
export type ConfigMeasurement = {
  config: SplitterConfig;
  chunks: Chunk[];
  seams: Seam[];
  summary: SeamSummary;
  seamDamage: SeamDamage;
  openers: BackwardOpeners;
  paragraphs: ParagraphBudget;
};
