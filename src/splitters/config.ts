/** The unit a splitter's `size` and `overlap` are counted in. */
export type Unit = "chars" | "tokens";

/** One splitter configuration: the plain data a sweep varies and a cache keys on. */
export interface SplitterConfig {
  splitter: string;
  size: number;
  overlap: number;
  unit?: Unit;
  /** A js-tiktoken encoding name, for token units. */
  encoding?: string;
  /** Separators for the recursive family (LangChain order); defaults per splitter. */
  separators?: string[];
  /** Treat `separators` as regular expressions (recursive port only; LangChain JS escapes them). */
  separatorsAreRegex?: boolean;
  /** Splitter-specific extra options (e.g. semantic threshold). Must be JSON-serialisable. */
  extra?: Record<string, unknown>;
}
