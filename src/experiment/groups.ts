import { existsSync, readFileSync } from "node:fs";
import picomatch from "picomatch";
import { SeamlabError } from "../core/errors";
import type { Query } from "../core/types";
import type { DecisionSettings, SweepCurve } from "./sweep";
import { groupBy } from "./grid";
import type { CostedRow } from "./run";
import { decideByStorage, verdictHeadline } from "./verdict";

// The per-group breakdown of a sweep curve: a query belongs to its first gold span's document, documents to groups
// (by folder or a user's glob -> name mapping), and each group gets its own paired verdict.

type GroupRule = { glob: string; name: string };

/** Reads `--groups FILE`: a JSON object mapping globs over document ids to group names, first match wins. */
export function readGroupRules(path: string): GroupRule[] {
  if (!existsSync(path)) throw new SeamlabError(`--groups ${path}: no such file.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new SeamlabError(
      `--groups ${path} is not valid JSON (${(error as Error).message}); write {"docs/**": "docs"}.`,
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new SeamlabError(`--groups ${path} must be a JSON object from glob to group name, e.g. {"docs/**": "docs"}.`);
  const rules = Object.entries(parsed as Record<string, unknown>).map(([glob, name]) => {
    if (typeof name !== "string" || name.trim() === "")
      throw new SeamlabError(`--groups ${path}: the group name for "${glob}" must be a non-empty string.`);
    return { glob, name };
  });
  if (rules.length === 0) throw new SeamlabError(`--groups ${path} maps no globs; e.g. {"docs/**": "docs"}.`);
  return rules;
}

const docOf = (query: Query) => query.gold[0]?.doc ?? "";

/** Each query's group: the first rule matching its document ("other"), else its folder below the shared ones. */
export function queryGroups(queries: readonly Query[], rules?: readonly GroupRule[]): string[] {
  if (rules && rules.length > 0) {
    const matchers = rules.map((rule) => ({ test: picomatch(rule.glob, { dot: true }), name: rule.name }));
    return queries.map((q) => matchers.find((m) => m.test(docOf(q)))?.name ?? "other");
  }
  const folders = queries.map((q) => docOf(q).split("/").slice(0, -1));
  const shortest = folders.length === 0 ? 0 : Math.min(...folders.map((f) => f.length));
  let shared = 0;
  while (shared < shortest && folders.every((f) => f[shared] === folders[0][shared])) shared++;
  return folders.map((f) => (f.length > shared ? f[shared] : "(top level)"));
}

/** Groups with fewer queries than this are pooled, and a pool this small gets no verdict of its own. */
export const DEFAULT_MIN_GROUP_QUERIES = 30;

const POOLED = "(small groups)";

export type GroupBreakdown = ReturnType<typeof groupBreakdown>[number];

/** A group's own verdict in a few words, or why it has none. */
export function groupVerdictHeadline(g: GroupBreakdown, name: (index: number) => string): string {
  return g.tooFewQueries
    ? `too few queries to decide (${g.queries} of ${g.minQueries} needed)`
    : verdictHeadline(g.decision, name);
}

/** Per-group verdicts of one curve, largest group first. */
export function groupBreakdown(
  curve: SweepCurve,
  rows: readonly CostedRow[],
  groups: readonly string[],
  options: DecisionSettings & { minQueries?: number } = {},
) {
  const minQueries = options.minQueries ?? DEFAULT_MIN_GROUP_QUERIES;
  if (rows.some((row) => row.hits.length !== groups.length))
    throw new SeamlabError(
      `group breakdown: ${groups.length} query groups for ${rows[0]?.hits.length} query outcomes.`,
    );
  const sizes = groupBy(groups, (g) => g);
  const members = groupBy(
    groups.map((_, q) => q),
    (q) => ((sizes.get(groups[q]) as string[]).length < minQueries ? POOLED : groups[q]),
  );
  const overall = curve.decision;
  const out = [...members].map(([group, queries]) => {
    const decision = decideByStorage(rows, { ...options, margin: options.margin ?? overall.margin }, queries);
    return {
      group,
      queries: queries.length,
      decision,
      // The whole corpus's pick against overlap 0, on this group's queries.
      pickVersusBaseline: decision.configs[overall.choice].fromBaseline,
      // Nobody would index a pool of small groups apart.
      differs: group !== POOLED && decision.verdict === "decided" && decision.choice !== overall.choice,
      tooFewQueries: queries.length < minQueries,
      minQueries,
    };
  });
  return out.sort((a, b) => b.queries - a.queries || a.group.localeCompare(b.group));
}
