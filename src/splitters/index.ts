export type { SplitterConfig, Unit } from "./config";
export {
  splitters,
  splitterNames,
  describeSplitter,
  validateSplitterConfig,
  splitDoc,
  splitCorpus,
  splitDocAsync,
  splitCorpusAsync,
} from "./registry";
export type { SplitFunction, SplitterEntry } from "./registry";
export { splitWindow, windowSpans } from "./window";
export { splitWindowWords } from "./window-words";
export { splitLangchain, splitLangchainAsync, splitLangchainMany, locateChunks } from "./langchain";
export { stopLangchainBridge } from "./langchain-bridge";
export { splitRecursive, splitRecursiveWith, recursiveOptionsFor, defaultSeparators } from "./recursive";
export { splitRecursiveSpans } from "./recursive-core";
export type { RecursiveOptions, KeepSeparator, SpanText } from "./recursive-core";
export { splitSentences, sentenceSeparators } from "./sentences";
export { splitTail } from "./tail";
export { splitTokens } from "./tokens";
