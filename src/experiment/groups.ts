import { existsSync, readFileSync } from "node:fs";
import picomatch from "picomatch";
import { SeamlabError } from "../core/errors";
import type { Query } from "../core/types";
import type { Decision } from "../stats/non-inferiority";
import type { PairedDifference } from "../stats/paired-best";
import type { SweepCurve } from "./sweep";
import type { CostedRow } from "./run";
import { decideRowsOn, verdictHeadline } from "./verdict";

/**
 * The per-group breakdown of a sweep curve: each query belongs to the document of its (first) gold span, and
 * documents to groups, by folder or by a user's glob -> name mapping. Each group gets its own paired verdict,
 * so groups that want another overlap than the whole corpus are named.
 */

export interface GroupRule {
  glob: string;
  name: string;
}

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
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new SeamlabError(`--groups ${path} must be a JSON object from glob to group name, e.g. {"docs/**": "docs"}.`);
  }
  const rules = Object.entries(parsed as Record<string, unknown>).map(([glob, name]) => {
    if (typeof name !== "string" || name.trim() === "") {
      throw new SeamlabError(`--groups ${path}: the group name for "${glob}" must be a non-empty string.`);
    }
    return { glob, name };
  });
  if (rules.length === 0) throw new SeamlabError(`--groups ${path} maps no globs; e.g. {"docs/**": "docs"}.`);
  return rules;
}

/** The document a query is about: its first gold span's. */
function docOf(query: Query): string {
  return query.gold[0]?.doc ?? "";
}

/**
 * Group name of every query. With rules: the first glob matching the document id ("other" when none does).
 * Without: the folder one level below the folders all documents share ("(top level)" for files directly in it).
 */
export function queryGroups(queries: readonly Query[], rules?: readonly GroupRule[]): string[] {
  if (rules && rules.length > 0) {
    const matchers = rules.map((rule) => ({ test: picomatch(rule.glob, { dot: true }), name: rule.name }));
    return queries.map((q) => matchers.find((m) => m.test(docOf(q)))?.name ?? "other");
  }
  const folders = queries.map((q) => docOf(q).split("/").slice(0, -1));
  let shared = folders.length === 0 ? 0 : Math.min(...folders.map((f) => f.length));
  for (let depth = 0; depth < shared; depth++) {
    if (folders.some((f) => f[depth] !== folders[0][depth])) {
      shared = depth;
      break;
    }
  }
  return folders.map((f) => (f.length > shared ? f[shared] : "(top level)"));
}

/** Groups with fewer queries than this are pooled, and a pool this small gets no verdict of its own. */
export const DEFAULT_MIN_GROUP_QUERIES = 30;

/** The name of the pool of groups with too few queries. */
export const POOLED = "(small groups)";

export interface GroupBreakdown {
  group: string;
  queries: number;
  /** The group's own paired verdict over the curve's overlaps (same costs). */
  decision: Decision;
  /** The whole corpus's pick against the curve's baseline (overlap 0), on this group's queries. */
  pickVersusBaseline: PairedDifference;
  /** The group's decided pick differs from the whole corpus's. */
  differs: boolean;
  /** Fewer queries than `minQueries` (only the pool of small groups can be): its own verdict is not stated. */
  tooFewQueries: boolean;
  minQueries: number;
}

/** A group's own verdict in a few words, or why it has none ("too few queries to decide (3 of 30 needed)"). */
export function groupVerdictHeadline(g: GroupBreakdown, name: (index: number) => string): string {
  return g.tooFewQueries
    ? `too few queries to decide (${g.queries} of ${g.minQueries} needed)`
    : verdictHeadline(g.decision, name);
}

export interface GroupOptions {
  /** Groups with fewer queries are pooled into "(small groups)". Default 30. */
  minQueries?: number;
  margin?: number;
  resamples?: number;
  seed?: number;
}

/** Per-group verdicts of one curve, largest group first. */
export function groupBreakdown(
  curve: SweepCurve,
  rows: readonly CostedRow[],
  groups: readonly string[],
  options: GroupOptions = {},
): GroupBreakdown[] {
  const minQueries = options.minQueries ?? DEFAULT_MIN_GROUP_QUERIES;
  if (rows.some((row) => row.hits.length !== groups.length)) {
    throw new SeamlabError(
      `group breakdown: ${groups.length} query groups for ${rows[0]?.hits.length} query outcomes.`,
    );
  }
  const sizes = new Map<string, number>();
  for (const g of groups) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  const pooled = groups.map((g) => ((sizes.get(g) as number) < minQueries ? POOLED : g));
  const members = new Map<string, number[]>();
  pooled.forEach((g, q) => {
    if (!members.has(g)) members.set(g, []);
    (members.get(g) as number[]).push(q);
  });
  const overall = curve.decision;
  const out: GroupBreakdown[] = [];
  for (const [group, queries] of members) {
    const decision = decideRowsOn(rows, queries, (row) => row.cost.storageBytes, {
      margin: options.margin ?? overall.margin,
      resamples: options.resamples,
      seed: options.seed,
      baseline: 0,
    });
    out.push({
      group,
      queries: queries.length,
      decision,
      pickVersusBaseline: decision.configs[overall.choice].fromBaseline,
      // A pool of small groups is no group anyone would index apart: never named as wanting another overlap.
      differs: group !== POOLED && decision.verdict === "decided" && decision.choice !== overall.choice,
      tooFewQueries: queries.length < minQueries,
      minQueries,
    });
  }
  return out.sort((a, b) => b.queries - a.queries || a.group.localeCompare(b.group));
}
