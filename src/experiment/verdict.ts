import { decideNonInferior, type Decision, type DecisionOptions } from "../stats/non-inferiority";
import type { PairedDifference } from "../stats/paired-best";
import type { GridRow } from "./rows";
import { formatP, percentNumber, pText, signedPoints, thousands } from "../stats/format";
import { MAX_PLANNED_QUERIES } from "../stats/margin-rule";

/**
 * The paired verdict of a set of grid rows run on the same queries: which config to use (the cheapest
 * non-inferior to the best by hit rate within the margin), or "undecided" with the queries that would tell,
 * and the sentences that say so. Costs are the caller's (vectors stored, by default).
 */

export interface VerdictOptions extends DecisionOptions {
  /** Names a config in prose, e.g. "overlap 200". Default: the row's label. */
  name?: (row: GridRow, index: number) => string;
}

/** Per-query outcomes of a row as 0/1 bytes. */
export function outcomesOf(row: GridRow): Uint8Array {
  const out = new Uint8Array(row.hits.length);
  for (let i = 0; i < row.hits.length; i++) out[i] = row.hits.charCodeAt(i) === 49 ? 1 : 0;
  return out;
}

/**
 * `decideRows` on some of the queries only (`queries`: positions in each row's hits), e.g. one group's or one
 * document type's: the same rule, paired on those queries.
 */
export function decideRowsOn<T extends GridRow>(
  rows: readonly T[],
  queries: readonly number[],
  costOf: (row: T) => number,
  options: DecisionOptions = {},
): Decision {
  return decideNonInferior(
    rows.map((row) => ({
      label: row.label,
      cost: costOf(row),
      outcomes: Uint8Array.from(queries, (q) => (row.hits.charCodeAt(q) === 49 ? 1 : 0)),
    })),
    options,
  );
}

/** Decides among rows (same queries) whose cost is `costOf(row)`; ties go to the earlier row. */
export function decideRows<T extends GridRow>(
  rows: readonly T[],
  costOf: (row: T) => number,
  options: DecisionOptions = {},
): Decision {
  return decideNonInferior(
    rows.map((row) => ({ label: row.label, cost: costOf(row), outcomes: outcomesOf(row) })),
    options,
  );
}

const signed = (x: number) => signedPoints(x, { minus: "−" });
const interval = (d: PairedDifference, sign = 1) => {
  const [a, b] = sign > 0 ? [d.low, d.high] : [-d.high, -d.low];
  return `[${signed(a)}, ${signed(b)}]`;
};
/**
 * The queries an undecided verdict needs, in all (this run's included), and how many more than the run that is:
 * `{ all: "381", more: "341" }` for 40 queries; `all` is null past the plan's cap, `more` null when the run already has as many.
 */
function queriesNeededText(needed: number, run: number): { all: string | null; more: string | null } {
  if (!Number.isFinite(needed)) return { all: null, more: null };
  return { all: thousands(needed), more: needed > run ? thousands(needed - run) : null };
}
/** What a plan that found no count up to its cap reads as: "more than 10,000,000". */
export const beyondPlannedQueries = `more than ${thousands(MAX_PLANNED_QUERIES)}`;

/** "1 point" / "0.5 points". */
export function marginText(margin: number): string {
  const value = 100 * margin;
  return `${Number(value.toFixed(2))} point${value === 1 ? "" : "s"}`;
}

/** "overlap 200 (−1.3 points from the best [−2.9, +0.0], McNemar p = 0.07)". */
export function differenceText(decision: Decision, index: number, name: (i: number) => string): string {
  const c = decision.configs[index];
  if (index === decision.best) return `${name(index)} (the best, ${percentNumber(c.rate)}%)`;
  return (
    `${name(index)} (${signed(-c.fromBest.diff)} points from the best ${interval(c.fromBest, -1)}, ` +
    `McNemar ${pText(c.fromBest.mcnemarP)})`
  );
}

/**
 * The verdict in two or three sentences: the pick and why, or "undecided" with the candidates and the
 * queries needed; never a bare number.
 */
export function verdictText(decision: Decision, name: (i: number) => string): string {
  const margin = marginText(decision.margin);
  const level = `${Math.round(100 * decision.level)}%`;
  const best = decision.configs[decision.best];
  const bestText =
    `the best is ${name(decision.best)} at ${percentNumber(best.rate)}% on ` + `${thousands(decision.queries)} queries`;
  const choice = decision.configs[decision.choice];
  const parts: string[] = [];
  if (decision.verdict === "decided") {
    if (decision.choiceIsNonInferior) {
      parts.push(
        `**Use ${name(decision.choice)}**: the cheapest setting within ${margin} of the best (paired ${level} CI of ` +
          `best − it: ${interval(choice.fromBest)} points, below the ${margin} margin); ${bestText}.`,
      );
    } else {
      const cheaper = decision.configs.some((c) => c.cost < choice.cost);
      parts.push(
        `**Use ${name(decision.choice)}**: ${bestText}, and ` +
          `${cheaper ? "every cheaper setting is shown worse than it" : "no setting is cheaper"}.`,
      );
    }
  } else {
    const candidates = decision.candidates.map((i) => differenceText(decision, i, name)).join("; ");
    const cheapest = decision.configs[decision.candidates[0]];
    const cheapestNeeds = queriesNeededText(cheapest.queriesNeeded as number, decision.queries).all;
    const settle =
      decision.candidates.length > 1
        ? `settle every candidate (${name(cheapest.index)} alone: ` +
          `${cheapestNeeds === null ? beyondPlannedQueries : `about ${cheapestNeeds}`})`
        : "decide it";
    const needs = queriesNeededText(decision.queriesNeeded as number, decision.queries);
    const run = thousands(decision.queries);
    const queriesSentence =
      needs.all === null
        ? `No number of queries up to ${thousands(MAX_PLANNED_QUERIES)} would ${settle} at the rates of disagreement ` +
          `seen here (this run has ${run}).`
        : `About ${needs.all} queries in all would ${settle} if the rates of disagreement seen here held (this run ` +
          `has ${run}${needs.more === null ? "" : `: ${needs.more} more`}).`;
    const safe = decision.choiceIsNonInferior
      ? `${name(decision.choice)} is the cheapest setting shown within ${margin} of the best (CI ` +
        `${interval(choice.fromBest)} points)`
      : `no setting is shown within ${margin} of the best`;
    parts.push(
      `**Undecided** at a ${margin} margin: ${bestText}; ${safe}, but the cheaper ` +
        `${decision.candidates.length === 1 ? "setting" : "settings"} ${candidates} can be neither shown within ` +
        `${margin} of the best nor shown worse. ` +
        queriesSentence +
        (decision.undecidedNote ? ` ${decision.undecidedNote}` : ""),
    );
  }
  const worse = decision.configs.filter((c) => c.status === "worse" && c.index !== decision.best);
  // "worse" needs the exact McNemar test as well as the CI (see shownDirection): say so where it is claimed.
  const worseRule = `paired CI above 0, McNemar p < ${formatP(1 - decision.level)}`;
  if (worse.length > 3) {
    parts.push(
      `Shown worse than the best (${worseRule}): ${worse.map((c) => name(c.index)).join("; ")} (up to ` +
        `${percentNumber(Math.max(...worse.map((c) => c.fromBest.diff)))} points below it).`,
    );
  } else if (worse.length > 0) {
    parts.push(
      `Shown worse than the best (${worseRule}): ` +
        `${worse.map((c) => differenceText(decision, c.index, name)).join("; ")}.`,
    );
  }
  return parts.join(" ");
}

/** The short form for a headline card: "200 chars (within 1 point of the best)" or "undecided: 0 or 500". */
export function verdictHeadline(decision: Decision, name: (i: number) => string): string {
  const margin = marginText(decision.margin);
  if (decision.verdict === "decided") {
    const cheaper = decision.configs.some((c) => c.cost < decision.configs[decision.choice].cost)
      ? "every cheaper one is shown worse"
      : "nothing is cheaper";
    return decision.choiceIsNonInferior
      ? `${name(decision.choice)} (within ${margin} of the best)`
      : `${name(decision.choice)} (the best; ${cheaper})`;
  }
  const options = [...decision.candidates, decision.choice].map(name);
  const needs = queriesNeededText(decision.queriesNeeded as number, decision.queries);
  const need = needs.all === null ? beyondPlannedQueries : `~${needs.all}`;
  return `undecided: ${options.join(", ")} (need ${need} queries${needs.more === null ? "" : `, ${needs.more} more`})`;
}

/**
 * A headline card: a short value ("200 chars", or "undecided: 0–200 chars") and a note carrying the verdict, the
 * margin, the evidence and, when undecided, the queries needed. `value(i)` names one config briefly ("200").
 */
export function verdictCard(
  decision: Decision,
  name: (i: number) => string,
  value: (i: number) => string,
  unit = "",
): { value: string; note: string } {
  const note = verdictText(decision, name).replace(/\*\*/g, "");
  if (decision.verdict === "decided") return { value: `${value(decision.choice)}${unit}`, note };
  const options = [...decision.candidates, decision.choice].map(value);
  const shown = options.length > 2 ? `${options[0]}…${options[options.length - 1]}` : options.join(" or ");
  return { value: `undecided: ${shown}${unit}`, note };
}
