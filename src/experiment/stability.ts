import { SeamlabError } from "../core/errors";
import { decideNonInferior, type Decision, type DecisionItem, type DecisionOptions } from "../stats/non-inferiority";
import type { CostedRow } from "./run";
import { curveRows, type SweepCurve } from "./sweep";
import { outcomesOf } from "./verdict";

// Does a verdict hold still where nothing about the data should matter: two other bootstrap seeds, a grid one step
// coarser, and the same grid's verdicts on other query sources. Pure: the caller's sweeps, no I/O.

interface StabilityOptions extends DecisionOptions {
  /** Default: seed + 1 and seed + 2. */
  otherSeeds?: readonly number[];
  /** Names a config from its label ("overlap 200"). */
  name?: (label: string) => string;
  /** The query source `items` were run on ("headers", "ict", "labelled"). */
  source?: string;
  /** The same grid's verdicts on other query sources, by source name (matched by config labels). */
  sources?: Readonly<Record<string, Decision>>;
}

interface StabilityCheck {
  kind: "seed" | "grid" | "source";
  /** "seed 2", "grid (0, 100, 300)", "ICT". */
  label: string;
  /** The source's key ("ict") when kind is "source". */
  source?: string;
  /** "200", "leaning 150", "undecided (0 or 150)". */
  answer: string;
  moves: boolean;
}

export type Stability = ReturnType<typeof verdictStability>;

/** A decision in short: the decided label, "leaning X", or "undecided (A or B)". */
export function shortAnswer(decision: Decision, name: (label: string) => string = (label) => label): string {
  const label = (i: number) => name(decision.configs[i].label);
  if (decision.verdict === "decided") return label(decision.choice);
  if (decision.verdict === "leaning") return `leaning ${label(decision.choice)}`;
  return `undecided (${[...decision.candidates, decision.choice].map(label).join(" or ")})`;
}

const SOURCE_NAMES: Record<string, { text: string; plural: boolean }> = {
  headers: { text: "headers", plural: true },
  ict: { text: "ICT", plural: false },
  labelled: { text: "labelled questions", plural: true },
};

const sourceName = (source: string) => SOURCE_NAMES[source] ?? { text: source, plural: false };

/**
 * The baseline and every other non-baseline point, in the phase that keeps the choice (so a decided answer can only
 * stay or become unsettled: see non-inferiority.ts); null with fewer than two non-baseline points.
 */
export function coarserGrid(count: number, baseline: number, choice: number): number[] | null {
  const others = Array.from({ length: count }, (_, i) => i).filter((i) => i !== baseline);
  if (others.length < 2) return null;
  const phase = choice === baseline ? 0 : others.indexOf(choice) % 2;
  const kept = new Set([baseline, ...others.filter((_, j) => j % 2 === phase)]);
  return Array.from({ length: count }, (_, i) => i).filter((i) => kept.has(i));
}

/** Whether `decision` (made on `items` with `options`) moves with the seed, the grid or the query source. */
export function verdictStability(items: readonly DecisionItem[], decision: Decision, options: StabilityOptions = {}) {
  if (decision.configs.length !== items.length)
    throw new SeamlabError(
      `stability: the decision has ${decision.configs.length} configs but ${items.length} items were given; pass the ` +
        "items the decision was made on.",
    );
  const { otherSeeds, name = (label: string) => label, source, sources, ...rule } = options;
  const seed = rule.seed ?? 1;
  const answer = shortAnswer(decision, name);
  const checks: StabilityCheck[] = [];
  const skipped: string[] = [];
  const check = (kind: StabilityCheck["kind"], label: string, again: Decision, source?: string) => {
    const short = shortAnswer(again, name);
    checks.push({ kind, label, ...(source === undefined ? {} : { source }), answer: short, moves: short !== answer });
  };
  for (const other of otherSeeds ?? [seed + 1, seed + 2])
    check("seed", `seed ${other}`, decideNonInferior(items, { ...rule, seed: other }));
  const baseline = rule.baseline ?? 0;
  const coarse = coarserGrid(items.length, baseline, decision.choice);
  if (coarse === null) {
    skipped.push(`no coarser grid: ${items.length - 1} point${items.length === 2 ? "" : "s"} besides the baseline`);
  } else {
    const coarseItems = coarse.map((i) => items[i]);
    const label = `grid (${coarseItems.map((item) => name(item.label)).join(", ")})`;
    check("grid", label, decideNonInferior(coarseItems, { ...rule, baseline: coarse.indexOf(baseline) }));
  }
  for (const [other, otherDecision] of Object.entries(sources ?? {}))
    if (other !== source) check("source", sourceName(other).text, otherDecision, other);
  return {
    stable: checks.every((c) => !c.moves),
    text: stabilityText(answer, checks, source),
    answer,
    checks,
    skipped,
  };
}

/** "stable", or what moved, the sources side by side: "moves: seed 2 says 200; headers say 150, ICT says 200". */
export function stabilityText(answer: string, checks: readonly StabilityCheck[], source?: string): string {
  const moved = checks.filter((c) => c.moves);
  if (moved.length === 0) return "stable";
  const says = (who: string, plural: boolean, what: string) => `${who} ${plural ? "say" : "says"} ${what}`;
  const parts = moved
    .filter((c) => c.kind !== "source")
    .map((c) => (c.kind === "seed" ? says(c.label, false, c.answer) : says(`a coarser ${c.label}`, false, c.answer)));
  if (moved.some((c) => c.kind === "source")) {
    const own = source === undefined ? { text: "these queries", plural: true } : sourceName(source);
    const sourceChecks = checks.filter((c) => c.kind === "source");
    parts.push(
      [
        says(own.text, own.plural, answer),
        ...sourceChecks.map((c) => says(c.label, sourceName(c.source ?? c.label).plural, c.answer)),
      ].join(", "),
    );
  }
  return `moves: ${parts.join("; ")}`;
}

/** A sweep curve's stability on the rows its decision was made on, configs named by overlap. */
export function curveStability(
  curve: SweepCurve,
  rows: readonly CostedRow[],
  settings: Pick<StabilityOptions, "margin" | "seed" | "source" | "sources"> = {},
): Stability {
  const ofCurve = curveRows(rows, curve);
  const overlapOf = new Map(ofCurve.map((row) => [row.label, row.config.splitter.overlap]));
  const items = ofCurve.map((row) => ({ label: row.label, cost: row.cost.storageBytes, outcomes: outcomesOf(row) }));
  const name = (label: string) => `overlap ${overlapOf.get(label) ?? label}`;
  return verdictStability(items, curve.decision, { ...settings, baseline: 0, name });
}
