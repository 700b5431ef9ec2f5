/**
 * `seamlab report --budget MIN`: the query sample of the retrieval notebooks, chosen so that their estimated time
 * fits. A pilot (the sweep's: notebook 03's first splitter at its two end overlaps, on 200 queries) gives the cost
 * of one split and of one query; each notebook's work at its default parameters is counted below in splits and
 * query passes; notebooks run `jobs` at a time.
 */
import { chooseQueryBudget, type BudgetChoice, type ConfigCostModel } from "../experiment/budget";

/**
 * Work of each retrieval notebook at its default parameters: `splits` (split, measure and index the corpus, or an
 * lsa fit of the same order) and `configs` (a pass of every query). Counted from the notebooks' cells:
 * 03: 2 splitters × 8 overlaps, 3 × 3 size-share grid, 8 dense overlaps (each also fits lsa), 8 ICT-source overlaps;
 * 04: 5 overlaps, each plain + 3 depths × (MMR, dense rerank fitting lsa); 05: 4 configs + 3 retrievers (2 fit
 * lsa); 06: 3 chunkings (semantic embeds every sentence) × BM25 and dense.
 */
export const notebookWorkload: Readonly<Record<string, { splits: number; configs: number }>> = {
  "03": { splits: 49, configs: 41 },
  "04": { splits: 20, configs: 35 },
  "05": { splits: 9, configs: 7 },
  "06": { splits: 9, configs: 6 },
};

/** The budget's query sample for the notebooks that will run (file names), and the line saying what and why. */
export function chooseReportBudget(options: {
  budgetMinutes: number;
  notebooks: readonly string[];
  jobs: number;
  model: ConfigCostModel;
  spentMs: number;
  population: number;
}): BudgetChoice & { modelled: string[] } {
  const modelled = options.notebooks.filter((name) => notebookWorkload[name.slice(0, 2)] !== undefined);
  const work = modelled.map((name) => notebookWorkload[name.slice(0, 2)]);
  const plan = (parts: readonly { splits: number; configs: number }[], parallel: number) =>
    chooseQueryBudget({
      budgetMs: options.budgetMinutes * 60_000,
      spentMs: options.spentMs,
      splits: parts.reduce((sum, w) => sum + w.splits, 0),
      configs: Math.max(
        1,
        parts.reduce((sum, w) => sum + w.configs, 0),
      ),
      parallel,
      model: options.model,
      population: options.population,
      advice: "Run fewer notebooks (--only) or raise --budget.",
    });
  // Notebooks run `jobs` at a time, but no faster than the longest one alone: the choice fitting both bounds.
  const shared = plan(work, Math.max(1, Math.min(options.jobs, modelled.length)));
  const longest = plan([work.reduce((a, b) => (b.splits + b.configs > a.splits + a.configs ? b : a))], 1);
  const choice = longest.queries < shared.queries ? longest : shared;
  const others = options.notebooks.filter((name) => !modelled.includes(name)).map((name) => name.slice(0, 2));
  const rest = others.length > 0 ? ` Notebooks ${others.join(", ")} are not in the estimate.` : "";
  return {
    ...choice,
    modelled,
    line: `${choice.line.replace(/^(budget [^:]+): /, `$1 for notebooks ${modelled.map((n) => n.slice(0, 2)).join(", ")}: `)}${rest}`,
  };
}
