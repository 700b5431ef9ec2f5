import { SeamlabError } from "../core/errors";
import { marginStatus, queriesToDecide, type ConfigStatus } from "./margin-rule";
import { pairedAgainstBest, type ConfigVersusBest, type Outcomes, type PairedBestOptions } from "./paired-best";

/**
 * The decision rule: recommend the cheapest config that is non-inferior to the best, i.e. whose paired CI
 * upper bound for (best − config) lies below the margin. A cheaper config the data can neither show
 * non-inferior nor show worse than the best (CI lower bound above 0 and exact McNemar p below 1 − level) makes
 * the verdict "undecided": the cheap option may be fine, and the verdict says how many queries would tell.
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

export interface Decision {
  verdict: "decided" | "undecided";
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
  /** Unclear configs cheaper than the choice (by cost), cheapest first. Empty when decided. */
  candidates: number[];
  /** Queries in all that would settle every candidate (the largest of theirs); null when decided. */
  queriesNeeded: number | null;
  /** Items sorted by cost order are not needed by callers: this is in input order. */
  configs: ConfigVerdict[];
  /** A sentence the verdict text adds when undecided, e.g. that the queries were a sample (raise it first). */
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

/** The cheapest non-inferior config, or "undecided" with the candidates and the queries needed. */
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
  return {
    verdict: candidates.length === 0 ? "decided" : "undecided",
    margin,
    level: paired.level,
    queries: paired.queries,
    resamples: paired.resamples,
    best: paired.best,
    baseline: paired.baseline,
    choice: choice.index,
    choiceIsNonInferior: cheapestNonInferior !== undefined,
    candidates,
    queriesNeeded: candidates.length === 0 ? null : Math.max(...needed),
    configs,
  };
}
