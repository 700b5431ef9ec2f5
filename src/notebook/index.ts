export { chart, table, md, mdSection, headline, recommendation, seamViewer } from "./display";
export { setDisplaySink, emitDisplay, type DisplaySink } from "./display";
export {
  chartBundle,
  tableBundle,
  markdownBundle,
  headlineBundle,
  recommendationBundle,
  seamViewerBundle,
} from "./bundles";
export { SEAMS_MIME, seamViewerHtml, seamViewerText } from "./seam-viewer";
export type { SeamViewerPayload, SeamViewerSplitter } from "./seam-viewer";
export type { DisplayBundle, TableOptions } from "./bundles";
export { VEGA_LITE_MIME, TABLE_MIME, HEADLINE_MIME, RECOMMENDATION_MIME } from "./mime";
export type { Row, TablePayload, HeadlinePayload, RecommendationPayload } from "./mime";
export { flipExamplesMarkdown } from "./flips";
