import { decideNonInferior, type Decision, type DecisionOptions } from "../stats/non-inferiority";
import type { PairedDifference } from "../stats/paired-best";
import type { GridRow } from "./rows";
import { formatP, percentNumber, pText, signedPoints, thousands } from "../stats/format";
import { MAX_PLANNED_QUERIES } from "../stats/margin-rule";

// The paired verdict of grid rows run on the same queries, and the sentences that say it.

/** Per-query outcomes of a row as 0/1 bytes, of the `queries` positions when given. */
export function outcomesOf(row: GridRow, queries?: readonly number[]): Uint8Array {
  const hit = (c: string | undefined) => (c === "1" ? 1 : 0);
  return queries ? Uint8Array.from(queries, (q) => hit(row.hits[q])) : Uint8Array.from(row.hits, hit);
}

/** The paired verdict of rows on the same queries (`queries` alone if given): cost = vectors stored, ties first. */
export function decideByStorage(
  rows: readonly (GridRow & { cost: { storageBytes: number } })[],
  { margin, resamples, seed }: Pick<DecisionOptions, "margin" | "resamples" | "seed"> = {},
  queries?: readonly number[],
): Decision {
  const items = rows.map((row) => ({
    label: row.label,
    cost: row.cost.storageBytes,
    outcomes: outcomesOf(row, queries),
  }));
  return decideNonInferior(items, { margin, resamples, seed, baseline: 0 });
}

const signed = (x: number) => signedPoints(x, { minus: "−" });
const interval = (d: PairedDifference, sign = 1) => {
  const [a, b] = sign > 0 ? [d.low, d.high] : [-d.high, -d.low];
  return `[${signed(a)}, ${signed(b)}]`;
};
/** `{ all: "381", more: "341" }` for 40 queries; `all` null past the plan's cap, `more` null when none are missing. */
function queriesNeededText(needed: number, run: number): { all: string | null; more: string | null } {
  if (!Number.isFinite(needed)) return { all: null, more: null };
  return { all: thousands(needed), more: needed > run ? thousands(needed - run) : null };
}
/** What a plan that found no count up to its cap reads as: "more than 10,000,000". */
export const beyondPlannedQueries = `more than ${thousands(MAX_PLANNED_QUERIES)}`;

/** "1 point" / "0.0001 points": six significant digits strip 100 × margin's float noise without rounding to "0". */
export function marginText(margin: number): string {
  const value = Number((100 * margin).toPrecision(6));
  return `${value} point${value === 1 ? "" : "s"}`;
}

/** "overlap 200 (−1.3 points from the best [−2.9, +0.0], McNemar p = 0.07)". */
export function differenceText(decision: Decision, index: number, name: (i: number) => string, note?: string): string {
  const c = decision.configs[index];
  const lead = note === undefined ? "" : `${note}, `;
  if (index === decision.best) return `${name(index)} (${lead}the best, ${percentNumber(c.rate)}%)`;
  return (
    `${name(index)} (${lead}${signed(-c.fromBest.diff)} points from the best ${interval(c.fromBest, -1)}, ` +
    `McNemar ${pText(c.fromBest.mcnemarP)})`
  );
}

/** The queries sentence: "About 381 queries in all would decide it if ... (this run has 40: 341 more)." */
function queriesSentence(needed: number, run: number, settle: string): string {
  const needs = queriesNeededText(needed, run);
  const runText = thousands(run);
  return needs.all === null
    ? `No number of queries up to ${thousands(MAX_PLANNED_QUERIES)} would ${settle} at the rates of disagreement ` +
        `seen here (this run has ${runText}).`
    : `About ${needs.all} queries in all would ${settle} if the rates of disagreement seen here held (this run ` +
        `has ${runText}${needs.more === null ? "" : `: ${needs.more} more`}).`;
}

/** A leaning verdict in words, never in the "Use X" form of a decided one. */
function leaningText(decision: Decision, name: (i: number) => string, bestText: string): string {
  const margin = marginText(decision.margin);
  const choice = decision.configs[decision.choice];
  const head = `Leaning: ${name(decision.choice)}, not decided at a ${margin} margin: ${bestText}`;
  if (decision.withinChoice.length > 0) {
    const within = decision.withinChoice.map((i) => {
      const c = decision.configs[i];
      return `${name(i)} (${signed(c.rate - choice.rate)} points from it)`;
    });
    const first = name(decision.withinChoice[0]);
    return (
      `${head}; ${name(decision.choice)} is the cheapest setting within ${margin} of the best (CI ` +
      `${interval(choice.fromBest)} points), but the cheaper ${within.join("; ")} ` +
      `${within.length === 1 ? "is" : "are"} shown worse than the best and within ${margin} of ` +
      `${name(decision.choice)} itself, so a grid of ${first} and ${name(decision.choice)} alone would pick ${first}: ` +
      `the answer rests on which dearer settings the grid holds, and more queries would not settle it.`
    );
  }
  const open = decision.configs.filter((c) => c.status === "unclear" && c.index !== decision.choice);
  const cheaper = (c: { cost: number; index: number }) =>
    c.cost < choice.cost || (c.cost === choice.cost && c.index < choice.index);
  const side = (c: { cost: number; index: number }) => (cheaper(c) ? "cheaper" : "dearer");
  const sides = [...new Set(open.map(side))];
  const openList =
    open.length > 3
      ? `${open.map((c) => name(c.index)).join(", ")} (${sides.length === 1 ? `all ${sides[0]}` : "cheaper and dearer"}; ` +
        `${signed(-Math.min(...open.map((c) => c.fromBest.diff)))} to ${signed(-Math.max(...open.map((c) => c.fromBest.diff)))} ` +
        "points from the best)"
      : open.map((c) => differenceText(decision, c.index, name, side(c))).join("; ");
  const openText =
    open.length === 0
      ? "Nothing else is left open."
      : `Not ruled out (neither shown within ${margin} of the best nor shown worse): ${openList}.`;
  return (
    `${head}; no setting is shown within ${margin} of the best, ${name(decision.choice)} included (paired CI of ` +
    `best − it: ${interval(choice.fromBest)} points, reaching the margin). ${openText} ` +
    queriesSentence(decision.queriesNeeded ?? Infinity, decision.queries, `show ${name(decision.choice)} within it`) +
    (decision.undecidedNote ? ` ${decision.undecidedNote}` : "")
  );
}

/** The verdict in two or three sentences, never a bare number. */
export function verdictText(decision: Decision, name: (i: number) => string): string {
  const margin = marginText(decision.margin);
  const level = `${Math.round(100 * decision.level)}%`;
  const best = decision.configs[decision.best];
  const bestText =
    `the best is ${name(decision.best)} at ${percentNumber(best.rate)}% on ` + `${thousands(decision.queries)} queries`;
  const choice = decision.configs[decision.choice];
  const parts: string[] = [];
  if (decision.verdict === "decided") {
    parts.push(
      `**Use ${name(decision.choice)}**: the cheapest setting within ${margin} of the best (paired ${level} CI of ` +
        `best − it: ${interval(choice.fromBest)} points, below the ${margin} margin); ${bestText}.`,
    );
  } else if (decision.verdict === "leaning") {
    parts.push(leaningText(decision, name, bestText));
  } else {
    const candidates = decision.candidates.map((i) => differenceText(decision, i, name)).join("; ");
    const cheapest = decision.configs[decision.candidates[0]];
    const cheapestNeeds = queriesNeededText(cheapest.queriesNeeded as number, decision.queries).all;
    const settle =
      decision.candidates.length > 1
        ? `settle every candidate (${name(cheapest.index)} alone: ` +
          `${cheapestNeeds === null ? beyondPlannedQueries : `about ${cheapestNeeds}`})`
        : "decide it";
    const sentence = queriesSentence(decision.queriesNeeded as number, decision.queries, settle);
    const safe = decision.choiceIsNonInferior
      ? `${name(decision.choice)} is the cheapest setting shown within ${margin} of the best (CI ` +
        `${interval(choice.fromBest)} points)`
      : `no setting is shown within ${margin} of the best`;
    parts.push(
      `**Undecided** at a ${margin} margin: ${bestText}; ${safe}, but the cheaper ` +
        `${decision.candidates.length === 1 ? "setting" : "settings"} ${candidates} can be neither shown within ` +
        `${margin} of the best nor shown worse. ` +
        sentence +
        (decision.undecidedNote ? ` ${decision.undecidedNote}` : ""),
    );
  }
  const worse = decision.configs.filter((c) => c.status === "worse" && c.index !== decision.best);
  // "worse" needs the exact McNemar test as well as the CI (see shownDirection): say so where it is claimed.
  const worseRule = `paired CI above 0, McNemar p < ${formatP(1 - decision.level)}`;
  const shownWorse =
    decision.verdict === "leaning" ? "Ruled out, shown worse than the best" : "Shown worse than the best";
  if (decision.verdict === "leaning" && worse.length === 0) parts.push("No setting is ruled out.");
  if (worse.length > 3) {
    parts.push(
      `${shownWorse} (${worseRule}): ${worse.map((c) => name(c.index)).join("; ")} (up to ` +
        `${percentNumber(Math.max(...worse.map((c) => c.fromBest.diff)))} points below it).`,
    );
  } else if (worse.length > 0) {
    parts.push(
      `${shownWorse} (${worseRule}): ` + `${worse.map((c) => differenceText(decision, c.index, name)).join("; ")}.`,
    );
  }
  return parts.join(" ");
}

/** The short form: "200 (within 1 point of the best)", "leaning: 150 (...)" or "undecided: 0, 500 (...)". */
export function verdictHeadline(decision: Decision, name: (i: number) => string): string {
  const margin = marginText(decision.margin);
  if (decision.verdict === "decided") return `${name(decision.choice)} (within ${margin} of the best)`;
  const needs = queriesNeededText(decision.queriesNeeded ?? Infinity, decision.queries);
  const need = needs.all === null ? beyondPlannedQueries : `~${needs.all}`;
  if (decision.verdict === "leaning") {
    if (decision.withinChoice.length > 0)
      return (
        `leaning: ${name(decision.choice)} (${name(decision.withinChoice[0])} is within ${margin} of it; ` +
        `the grid decides, not more queries)`
      );
    return `leaning: ${name(decision.choice)} (not shown within ${margin}; ${need} queries to settle)`;
  }
  const options = [...decision.candidates, decision.choice].map(name);
  return `undecided: ${options.join(", ")} (need ${need} queries${needs.more === null ? "" : `, ${needs.more} more`})`;
}

/** A headline card: a short value (bare only when decided; `value(i)` names a config briefly) and the verdict's text. */
export function verdictCard(decision: Decision, name: (i: number) => string, value: (i: number) => string, unit = "") {
  const note = verdictText(decision, name).replace(/\*\*/g, "");
  if (decision.verdict === "decided") return { value: `${value(decision.choice)}${unit}`, note };
  if (decision.verdict === "leaning") return { value: `leaning: ${value(decision.choice)}${unit}`, note };
  const options = [...decision.candidates, decision.choice].map(value);
  const shown = options.length > 2 ? `${options[0]}…${options[options.length - 1]}` : options.join(" or ");
  return { value: `undecided: ${shown}${unit}`, note };
}
