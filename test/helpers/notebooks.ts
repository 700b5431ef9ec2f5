import type { Notebook } from "../../src/report/nbformat";

/** An nbformat 4.5 notebook of code cells only, one per source, none executed yet. */
export function codeNotebook(...sources: string[]): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: sources.map((source) => ({ cell_type: "code", source, metadata: {}, outputs: [], execution_count: null })),
  };
}
