import { SeamlabError } from "../core/errors";
import { decideNonInferior, type Decision, type DecisionItem, type DecisionOptions } from "../stats/non-inferiority";
import type { CostedRow } from "./run";
import { curveRows, type SweepCurve } from "./sweep";
import { outcomesOf } from "./verdict";

/**
 * Does a verdict hold still? The same rule re-run where nothing about the data should matter: two other bootstrap
 * seeds, and a grid one step coarser (every other non-baseline point dropped, keeping the choice); and, when the
 * caller ran the sweep on other query sources too, their verdicts beside this one. The answer reads "stable", or
 * what moved: "moves: seed 2 says 200", "moves: headers say 150, ICT says 200". Pure: the caller's sweeps, no I/O.
 */

export interface StabilityOptions extends DecisionOptions {
  /** The two other bootstrap seeds (default: seed + 1 and seed + 2, the seed defaulting to 1 as the rule's does). */
  otherSeeds?: readonly number[];
  /** Names a config from its label in the text ("overlap 200"); default the label itself. */
  name?: (label: string) => string;
  /** The query source `items` were run on ("headers", "ict", "labelled"); named when `sources` are given. */
  source?: string;
  /**
   * The same grid's verdicts on other query sources, keyed by source name ("headers", "ict", "labelled"): each
   * decision's configs carry their labels, so its grid need not be this one's.
   */
  sources?: Readonly<Record<string, Decision>>;
}

export interface StabilityCheck {
  kind: "seed" | "grid" | "source";
  /** "seed 2", "grid 0, 100, 300", "ICT". */
  label: string;
  /** The source's key ("ict") when kind is "source". */
  source?: string;
  /** The verdict there in short: "200", "leaning 150", "undecided (0 or 150)". */
  answer: string;
  moves: boolean;
}

export interface Stability {
  stable: boolean;
  /** "stable", or "moves: seed 2 says 200; a coarser grid (0, 100, 300) says leaning 150". */
  text: string;
  /** This verdict in short, as the checks' answers are written. */
  answer: string;
  checks: StabilityCheck[];
  /** Checks that could not run, and why ("no coarser grid: 1 point besides the baseline"). */
  skipped: string[];
}

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

function sourceName(source: string): { text: string; plural: boolean } {
  return SOURCE_NAMES[source] ?? { text: source, plural: false };
}

/**
 * The grid one step coarser: the baseline and every other non-baseline point (input order), in the phase that keeps
 * the choice, so a decided answer can only stay or become unsettled there (see the invariant in non-inferiority.ts).
 * Null with fewer than two non-baseline points.
 */
export function coarserGrid(count: number, baseline: number, choice: number): number[] | null {
  const others = Array.from({ length: count }, (_, i) => i).filter((i) => i !== baseline);
  if (others.length < 2) return null;
  const phase = choice === baseline ? 0 : others.indexOf(choice) % 2;
  const kept = new Set([baseline, ...others.filter((_, j) => j % 2 === phase)]);
  return Array.from({ length: count }, (_, i) => i).filter((i) => kept.has(i));
}

/** Whether `decision` (made on `items` with `options`) moves with the seed, the grid or the query source. */
export function verdictStability(
  items: readonly DecisionItem[],
  decision: Decision,
  options: StabilityOptions = {},
): Stability {
  if (decision.configs.length !== items.length)
    throw new SeamlabError(
      `stability: the decision has ${decision.configs.length} configs but ${items.length} items were given; pass the ` +
        "items the decision was made on.",
    );
  const name = options.name ?? ((label: string) => label);
  const { otherSeeds, name: _name, source, sources, ...rule } = options;
  const seed = rule.seed ?? 1;
  const answer = shortAnswer(decision, name);
  const checks: StabilityCheck[] = [];
  const skipped: string[] = [];
  for (const other of otherSeeds ?? [seed + 1, seed + 2]) {
    const again = shortAnswer(decideNonInferior(items, { ...rule, seed: other }), name);
    checks.push({ kind: "seed", label: `seed ${other}`, answer: again, moves: again !== answer });
  }
  const baseline = rule.baseline ?? 0;
  const coarse = coarserGrid(items.length, baseline, decision.choice);
  if (coarse === null) {
    skipped.push(`no coarser grid: ${items.length - 1} point${items.length === 2 ? "" : "s"} besides the baseline`);
  } else {
    const coarseDecision = decideNonInferior(
      coarse.map((i) => items[i]),
      { ...rule, baseline: coarse.indexOf(baseline) },
    );
    const again = shortAnswer(coarseDecision, name);
    checks.push({
      kind: "grid",
      label: `grid (${coarse.map((i) => name(items[i].label)).join(", ")})`,
      answer: again,
      moves: again !== answer,
    });
  }
  for (const [other, otherDecision] of Object.entries(sources ?? {})) {
    if (other === source) continue;
    const again = shortAnswer(otherDecision, name);
    checks.push({
      kind: "source",
      label: sourceName(other).text,
      source: other,
      answer: again,
      moves: again !== answer,
    });
  }
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

/**
 * A sweep curve's stability (seed, coarser grid, and the other query sources' decisions when given), on the rows its
 * decision was made on, configs named by overlap. A source's decision names its configs by the same row labels (the
 * same configs run on other queries).
 */
export function curveStability(
  curve: SweepCurve,
  rows: readonly CostedRow[],
  settings: { margin?: number; seed?: number; source?: string; sources?: Readonly<Record<string, Decision>> } = {},
): Stability {
  const ofCurve = curveRows(rows, curve);
  const overlapOf = new Map(ofCurve.map((row) => [row.label, row.config.splitter.overlap]));
  return verdictStability(
    ofCurve.map((row) => ({ label: row.label, cost: row.cost.storageBytes, outcomes: outcomesOf(row) })),
    curve.decision,
    {
      margin: settings.margin,
      seed: settings.seed,
      baseline: 0,
      name: (label) => `overlap ${overlapOf.get(label) ?? label}`,
      source: settings.source,
      sources: settings.sources,
    },
  );
}
