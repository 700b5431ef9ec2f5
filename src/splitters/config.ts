/** The unit a splitter's `size` and `overlap` are counted in. */
export type Unit = "chars" | "tokens";

/**
 * One splitter configuration: the plain data a sweep varies and a cache keys on.
 * `size`/`overlap` are in `unit`s; token units use `encoding` (a js-tiktoken encoding name).
 */
export interface SplitterConfig {
  splitter: string;
  size: number;
  overlap: number;
  unit?: Unit;
  encoding?: string;
  /** Separators for the recursive family (LangChain order); defaults per splitter. */
  separators?: string[];
  /** Treat `separators` as regular expressions (recursive port only; LangChain JS escapes them). */
  separatorsAreRegex?: boolean;
  /** Splitter-specific extra options (e.g. semantic threshold). Must be JSON-serialisable. */
  extra?: Record<string, unknown>;
}
