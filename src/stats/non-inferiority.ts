import { SeamlabError } from "../core/errors";
import { marginStatus, queriesToDecide, type ConfigStatus } from "./margin-rule";
import {
  pairedAgainstBest,
  upperFromBest,
  type ConfigVersusBest,
  type Outcomes,
  type PairedBestOptions,
} from "./paired-best";

/**
 * The decision rule: recommend the cheapest config that is non-inferior to the best, i.e. whose paired CI
 * upper bound for (best − config) lies below the margin. Three verdicts:
 * - "undecided": a config cheaper than the choice is unclear (neither shown within the margin nor shown worse than
 *   the best): the cheap option may be fine, and the verdict says how many queries would tell;
 * - "leaning": every cheaper config is shown worse, but the choice is not decided: either no config is shown within
 *   the margin (the choice is then the observed best) or a cheaper config is shown within the margin of the choice
 *   itself (see below);
 * - "decided": the choice is shown within the margin of the best, every cheaper config is shown worse than the best,
 *   and none of them is shown within the margin of the choice.
 *
 * Why the last clause. "Within the margin of the best" is relative to the grid's best, and a smaller grid's best is
 * no better: drop overlap 400 and 100 may come within a point of the new best, 200, although it was not within a
 * point of 400, so {0, 100, 200} decides 100 where {0, 100, 200, 400} decided 200. The invariant the verdict keeps
 * (test/stats/non-inferiority-subsets.test.ts checks it over every sub-grid of simulated and real sweeps): when a
 * grid G decides c and a sub-grid G' that still holds c decides, G' decides c too; so adding or removing a grid
 * point never turns one decided answer into another, unless that point is itself the new or the old answer.
 * Proof. Write NI_G(x) for "x is shown within the margin of the best of G": by upperFromBest's construction the bound
 * only grows with the grid, so NI_G(x) implies NI_G'(x) for every sub-grid G' holding x. Say G' decides c' ≠ c.
 * - c' dearer than c: NI_G(c) gives NI_G'(c), so c' is not the cheapest config shown within the margin in G'.
 * - c' cheaper than c: G decided c, so c' is not NI in the pair {c', c}; every grid holding both is a super-grid
 *   of the pair, so c' is not NI in G' either, and G' cannot decide it.
 * The price: a cheaper config within the margin of the choice, which is itself within the margin of the best,
 * leaves the verdict "leaning" however many queries come (on a smooth curve with a dense grid, the answer truly
 * depends on which dearer configs the grid holds). Decided answers say what no grid holding them can overturn.
 */

export interface DecisionItem {
  label: string;
  /** What the config costs (index size, tokens, dollars: only the order matters). */
  cost: number;
  outcomes: Outcomes;
}

export interface DecisionOptions extends PairedBestOptions {
  /** Largest loss against the best that is acceptable, in proportion units (default 0.01 = 1 point). */
  margin?: number;
}

export interface ConfigVerdict extends ConfigVersusBest {
  index: number;
  label: string;
  cost: number;
  status: ConfigStatus;
  /** Queries in all (not more than the run's) that would settle an unclear config (see queriesToDecide); else null. */
  queriesNeeded: number | null;
}

export type VerdictState = "decided" | "leaning" | "undecided";

export interface Decision {
  verdict: VerdictState;
  margin: number;
  level: number;
  queries: number;
  resamples: number;
  /** Index (into the items) of the best observed config. */
  best: number;
  baseline: number;
  /**
   * The cheapest non-inferior config: the recommendation when decided, the safe pick when undecided. When no
   * config is shown non-inferior (the best's own CI can reach the margin when configs tie), the best.
   */
  choice: number;
  choiceIsNonInferior: boolean;
  /** Unclear configs cheaper than the choice (by cost), cheapest first. Empty unless undecided. */
  candidates: number[];
  /**
   * Configs cheaper than the choice, shown worse than the best but shown within the margin of the choice itself
   * (the best of the pair re-picked, as in the grid), cheapest first: they keep a choice shown within the margin
   * from being decided (see the invariant above). Empty unless the choice is shown within the margin.
   */
  withinChoice: number[];
  /**
   * Queries in all that would settle the verdict: undecided, every candidate (the largest of theirs); leaning
   * because no config is shown within the margin, the choice's own; null when decided or when more queries cannot
   * settle it (leaning on `withinChoice`).
   */
  queriesNeeded: number | null;
  /** Items sorted by cost order are not needed by callers: this is in input order. */
  configs: ConfigVerdict[];
  /** A sentence the verdict text adds when it asks for queries, e.g. that they were a sample (raise it first). */
  undecidedNote?: string;
}

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

/** The cheapest non-inferior config, or "leaning"/"undecided" with what is unsettled and the queries needed. */
export function decideNonInferior(items: readonly DecisionItem[], options: DecisionOptions = {}): Decision {
  const margin = checkMargin(options.margin ?? 0.01, "margin");
  if (items.length === 0) throw new SeamlabError("decision: there are no configs to choose from.");
  items.forEach((item) => {
    if (!Number.isFinite(item.cost)) throw new SeamlabError(`decision: config "${item.label}" has no finite cost.`);
  });
  const paired = pairedAgainstBest(
    items.map((item) => item.outcomes),
    options,
  );
  const configs: ConfigVerdict[] = paired.configs.map((c, index) => {
    const status: ConfigStatus = marginStatus(c.fromBest, margin, paired.level);
    return {
      ...c,
      index,
      label: items[index].label,
      cost: items[index].cost,
      status,
      queriesNeeded: status === "unclear" ? queriesToDecide(c.fromBest, paired.queries, margin, paired.level) : null,
    };
  });
  const byCost = [...configs].sort((a, b) => a.cost - b.cost || a.index - b.index);
  const cheapestNonInferior = byCost.find((c) => c.status === "non-inferior");
  const choice = cheapestNonInferior ?? configs[paired.best];
  const candidates = byCost
    .filter((c) => c.status === "unclear" && c.index !== choice.index)
    .filter((c) => c.cost < choice.cost || (c.cost === choice.cost && c.index < choice.index))
    .map((c) => c.index);
  const needed = candidates.map((i) => configs[i].queriesNeeded as number);
  const choiceIsNonInferior = cheapestNonInferior !== undefined;
  const withinChoice =
    choiceIsNonInferior && candidates.length === 0
      ? byCost
          .filter((c) => c.cost < choice.cost || (c.cost === choice.cost && c.index < choice.index))
          .filter((c) => upperFromBest(paired, c.index, [c.index, choice.index]) < margin)
          .map((c) => c.index)
      : [];
  const verdict: VerdictState =
    candidates.length > 0 ? "undecided" : !choiceIsNonInferior || withinChoice.length > 0 ? "leaning" : "decided";
  const queriesNeeded =
    verdict === "undecided"
      ? Math.max(...needed)
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
    choice: choice.index,
    choiceIsNonInferior,
    candidates,
    withinChoice,
    queriesNeeded,
    configs,
  };
}
