// The typed arrays of a BM25 index that two builds of the same index must hold equal, for tests comparing builds.
export const bm25ArrayFields = [
  "postingStart",
  "postingTextLow",
  "blockStart",
  "postingFrequency",
  "textLength",
  "idf",
  "lengthNorm",
] as const;
