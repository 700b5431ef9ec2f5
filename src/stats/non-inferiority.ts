import { SeamlabError } from "../core/errors";
import { marginStatus, queriesToDecide } from "./margin-rule";
import { pairedAgainstBest, upperFromBest, type Outcomes, type PairedBestOptions } from "./paired-best";

/**
 * Recommend the cheapest config non-inferior to the best (paired CI upper bound of best − config below the margin):
 * "undecided" while a config cheaper than the choice is unclear (the verdict says how many queries would tell);
 * "leaning" when every cheaper config is shown worse but none is shown within the margin (the choice is the best)
 * or one is within the margin of the choice itself; else "decided". That last clause makes a sub-grid holding the
 * answer c that decides, decide c (test/stats/non-inferiority-subsets.test.ts): upperFromBest only grows with the
 * grid (NI in a grid is NI in its sub-grids), so a dearer c' loses to c, and a cheaper c' not NI in the pair {c', c}
 * is NI in no grid holding both. The price: such a pair leaves the verdict "leaning" however many queries come.
 */

export interface DecisionItem {
  label: string;
  cost: number;
  outcomes: Outcomes;
}

export interface DecisionOptions extends PairedBestOptions {
  /** Acceptable loss against the best (default 0.01 = 1 point). */
  margin?: number;
}

export type VerdictState = "decided" | "leaning" | "undecided";

export type Decision = ReturnType<typeof decideNonInferior> & {
  /** Added to the verdict text when it asks for queries (e.g. that they were a sample). */
  undecidedNote?: string;
};

export function checkMargin(margin: number, flag = "--margin"): number {
  if (!(Number.isFinite(margin) && margin > 0 && margin < 1)) {
    throw new SeamlabError(
      flag === "--margin"
        ? `--margin must be a number of points of hit rate above 0 and below 100, got ${100 * margin}.`
        : `${flag} must be a loss in hit rate between 0 and 1 (0.01 = 1 point), got ${margin}.`,
    );
  }
  return margin;
}

export function decideNonInferior(items: readonly DecisionItem[], options: DecisionOptions = {}) {
  const margin = checkMargin(options.margin ?? 0.01, "margin");
  if (items.length === 0) throw new SeamlabError("decision: there are no configs to choose from.");
  const costless = items.find((item) => !Number.isFinite(item.cost));
  if (costless) throw new SeamlabError(`decision: config "${costless.label}" has no finite cost.`);
  const outcomes = items.map((item) => item.outcomes);
  const paired = pairedAgainstBest(outcomes, options);
  const configs = paired.configs.map((c, index) => {
    const status = marginStatus(c.fromBest, margin, paired.level);
    return {
      ...c,
      index,
      label: items[index].label,
      cost: items[index].cost,
      status,
      /** queries that would settle an unclear config */
      queriesNeeded: status === "unclear" ? queriesToDecide(c.fromBest, paired.queries, margin, paired.level) : null,
    };
  });
  const byCost = [...configs].sort((a, b) => a.cost - b.cost || a.index - b.index);
  const cheapestNonInferior = byCost.find((c) => c.status === "non-inferior");
  const choice = cheapestNonInferior ?? configs[paired.best];
  const cheaper = (c: typeof choice) => c.cost < choice.cost || (c.cost === choice.cost && c.index < choice.index);
  const candidates = byCost.filter((c) => c.status === "unclear" && cheaper(c)).map((c) => c.index);
  const choiceIsNonInferior = cheapestNonInferior !== undefined;
  const withinChoice =
    choiceIsNonInferior && candidates.length === 0
      ? byCost
          .filter((c) => cheaper(c) && upperFromBest(paired, c.index, [c.index, choice.index]) < margin)
          .map((c) => c.index)
      : [];
  const verdict: VerdictState =
    candidates.length > 0 ? "undecided" : !choiceIsNonInferior || withinChoice.length > 0 ? "leaning" : "decided";
  const queriesNeeded =
    verdict === "undecided"
      ? Math.max(...candidates.map((i) => configs[i].queriesNeeded as number))
      : verdict === "leaning" && !choiceIsNonInferior
        ? (choice.queriesNeeded ?? queriesToDecide(choice.fromBest, paired.queries, margin, paired.level))
        : null;
  return {
    verdict,
    margin,
    level: paired.level,
    queries: paired.queries,
    resamples: paired.resamples,
    best: paired.best,
    baseline: paired.baseline,
    /** the cheapest non-inferior config, or the best when none is shown non-inferior */
    choice: choice.index,
    choiceIsNonInferior,
    /** unclear configs cheaper than the choice, cheapest first */
    candidates,
    /** cheaper configs shown worse than the best but within the margin of the choice: they keep it "leaning" */
    withinChoice,
    /** null when decided or when more queries cannot settle it (`withinChoice`) */
    queriesNeeded,
    configs,
  };
}
