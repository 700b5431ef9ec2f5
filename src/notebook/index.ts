export { chart, table, md, headline } from "./display";
export { chartBundle, tableBundle, markdownBundle, headlineBundle } from "./bundles";
export type { DisplayBundle, TableOptions } from "./bundles";
export { setDisplaySink, emitDisplay } from "./emit";
export type { DisplaySink } from "./emit";
export { VEGA_LITE_MIME, TABLE_MIME, HEADLINE_MIME } from "./mime";
export type { Row, TablePayload, HeadlinePayload } from "./mime";
