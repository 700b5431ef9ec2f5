// The notebooks' whole API, as named exports (like d3-array's src/index.js). Nothing in `src/` imports this file, so it
// can never close an import cycle.
export { boundaryAdvice, runBoundaryCheck } from "./boundary-check";
export { budgetChartRows, budgetFinding, budgetGridOf, budgetTableRows, runStudyBudgetGrid } from "./context-budget";
export { contextBudgetParameter, gridCardOf, gridHeatmapRows, priceTableRows } from "./context-budget";
export { groupTableRows, groupsFinding, studyGroups } from "./context-budget";
export { leverChartRows, leverTableRows, leverVerdictText, runStudyLevers } from "./context-budget";
export { damageGainRows, damageLineRows, seamDamageRows } from "./damage";
export { gainFinding, keptFinding, pairsFinding } from "./damage";
export { embedderNameOf } from "./dense";
export { flipTableRows, flipsFinding, flipsOfVerdict } from "./flips";
export { loadProse, loadProseSample, loadRetrievalInputs, loadRetrievalOrSample } from "./inputs";
export {
  compareEvaluations,
  comparisonTableRows,
  configLabel,
  evaluateConfigs,
  evaluateRetrievers,
  evaluationTableRows,
  iouRows,
  labelledInputs,
  recallRows,
} from "./labelled";
export { bestRecallFinding, labelledSetFinding, pairedFinding, retrieverFinding } from "./labelled";
export { headerQuerySet, librariesPreset, libraryDisplayRows, libraryTable, libraryVerdict } from "./libraries";
export { differenceFromBestRows, marginBand, pairedTableRows } from "./sweep";
export {
  runProseIctSweeps,
  runSourceSweeps,
  sourceRecommendationText,
  sourceSeriesLabels,
  sourceSweepsSubtitle,
  validationSummary,
} from "./query-sources";
export {
  depthHeatmapRows,
  distinctRows,
  overlappingTopKRows,
  redundancyTableRows,
  runRedundancyGrid,
} from "./redundancy";
export { bestMmrFinding, denseRerankFinding, distinctFinding } from "./redundancy";
export { runStudyProxies } from "./proxies";
export { sweepExposure, sweepRecommendation } from "./recommendation";
export type { CurveExposure, SourceResults } from "./recommendation";
export { reproDoc, reproRows } from "./seams";
export {
  measureSplitters,
  openerRows,
  openerSampleRows,
  paragraphLengthRows,
  seamOverlapRows,
  seamSummaryRows,
} from "./seams";
export { openerFinding, paragraphBudgetFinding, reproFinding, withCountTitle, zeroOverlapFinding } from "./seams";
export {
  armTableRows,
  chunkLengthRows,
  matchedSize,
  neighbourScatterRows,
  neighbourTableRows,
  retrievalBarRows,
  retrieveArm,
  semanticArm,
  splitterArm,
} from "./semantic";
export { chunkSizeFinding, hitRateFinding, neighbourFinding } from "./semantic";
export { appendixSimulation } from "./simulation-store";
export { simulationFinding, simulationTableRows } from "./simulation-text";
export { lookAlikeFinding, splitterChoiceFinding } from "./splitter-agreement";
export {
  configsFor,
  damageBarRows,
  damageByTypeTable,
  damageWideRows,
  structureDamageBySplitter,
  structureFinding,
  typeBreakdownTable,
  worstAndStructureFinding,
} from "./structure-damage";
export {
  combinedRecommendationMarkers,
  costCurveRows,
  costTableRows,
  hitRateRows,
  recommendOverlap,
  recommendationCard,
  recommendationMarkers,
  runDenseSweep,
  runStudySweeps,
} from "./sweep";
export { costFinding, denseFinding, recommendationFinding } from "./sweep";
export { loadTypedOrSample } from "./type-queries";
export type { RecommendationPayload } from "./types";
export {
  perTypeHeadline,
  perTypeVerdictFinding,
  runTypeStudy,
  typeCurveRows,
  typeRecommendationCaption,
  typeRecommendationRows,
} from "./type-sweep";
export { seamViewerPayload } from "./viewer";
export { characterBudgetSample } from "../corpus/sample";
