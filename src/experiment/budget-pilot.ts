/**
 * The pilot behind `--budget`: a few configs of the sweep, each computed as the sweep would (split, measure,
 * index, queries) on a small seeded sample of the queries, timed; then the time their queries alone take. From
 * these, `costModelFromPilot` splits a config's cost into a fixed part and a part per query.
 */
import { canonicalJson } from "../core/canonical-json";
import { evaluateSplitterConfig } from "../retrieval/evaluate-config";
import { sampleQueries } from "../retrieval/query-sample";
import { costModelFromPilot, type ConfigCostModel } from "./budget";
import type { ExperimentConfig } from "./grid";
import { computeTaskRows, type RowOptions, type SweepInputs } from "./rows";

/** Queries the pilot runs per config (all of them when there are fewer). */
export const pilotQueryCount = 200;

export interface PilotResult {
  model: ConfigCostModel;
  /**
   * With `separateSetup`: what the first config paid once for the whole sweep (the documents' term table every
   * config's index reads, the row sample's sentence pairs and token pieces, a splitter thread's start, compiling
   * the hot code), timed as the first config's row once more, warm, subtracted from its first. `model.fixedMs` is
   * then the warm rows' mean. Without it, 0 and every row as it came.
   */
  setupMs: number;
  /** Wall time of the whole pilot, which the budget has already paid. */
  spentMs: number;
  pilotQueries: number;
  pilotConfigs: number;
}

/** The first config of the first and of the last splitter config: the sweep's two ends (say overlap 0 and 400). */
export function pilotConfigs(configs: readonly ExperimentConfig[]): ExperimentConfig[] {
  const firstOf = new Map<string, ExperimentConfig>();
  for (const config of configs) {
    const key = canonicalJson(config.splitter);
    if (!firstOf.has(key)) firstOf.set(key, config);
  }
  const ends = [...firstOf.values()];
  return ends.length <= 1 ? ends : [ends[0], ends[ends.length - 1]];
}

/** Distinct splitter configs of a sweep (each splits, measures and indexes the corpus once). */
export function splitCount(configs: readonly ExperimentConfig[]): number {
  return new Set(configs.map((c) => canonicalJson(c.splitter))).size;
}

/**
 * Times the pilot and returns the cost model it implies. Reranking is not in the query-only timing (the first
 * stage is), so with a reranker the per-query part is an underestimate and the fixed part holds the rest. With
 * `inputs.sample`, seam damage and tokens are measured on that document sample, as the sweep being planned will.
 */
export async function pilotSweepCost(
  inputs: SweepInputs,
  configs: readonly ExperimentConfig[],
  options: RowOptions & { now?: () => number; separateSetup?: boolean } = {},
): Promise<PilotResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const queries = sampleQueries(inputs.queries, { kind: "count", count: pilotQueryCount }).queries;
  const chosen = pilotConfigs(configs);
  const timings: { rowMs: number; queryMs: number }[] = [];
  for (const config of chosen) {
    const t0 = now();
    await computeTaskRows({ docs: inputs.docs, queries, sample: inputs.sample }, [config], ["budget-pilot"], options);
    const rowMs = now() - t0;
    // The queries alone (the index is already built), with the config's retriever: the part a sample shortens.
    // evaluateSplitterConfig times its phases by the wall clock: the queries get their wall share of what the call
    // took on the pilot's clock, so a CPU-time pilot on a busy machine does not count waiting as query time (at
    // load 9 the wall-timed queries made 79 ms a query and 26 s a split of what an hour before was 16 ms and 44 s).
    const r = config.retrieval;
    const e0 = now();
    const evaluation = await evaluateSplitterConfig(inputs.docs, queries, config.splitter, {
      k: r.k,
      retriever: r.retriever,
      retrieverSettings: r.retrieverSettings,
      nearDuplicateThreshold: options.nearDuplicateThreshold,
    });
    const evaluationMs = now() - e0;
    const wall = evaluation.timings;
    const queryShare = wall.query / Math.max(1e-9, wall.split + wall.index + wall.query);
    timings.push({ rowMs, queryMs: Math.min(rowMs, evaluationMs * queryShare) });
  }
  let setupMs = 0;
  if (options.separateSetup && chosen.length > 0) {
    const t0 = now();
    await computeTaskRows(
      { docs: inputs.docs, queries, sample: inputs.sample },
      [chosen[0]],
      ["budget-pilot"],
      options,
    );
    const warmMs = now() - t0;
    setupMs = Math.max(0, timings[0].rowMs - warmMs);
    timings[0] = { rowMs: Math.min(timings[0].rowMs, warmMs), queryMs: Math.min(timings[0].queryMs, warmMs) };
  }
  return {
    model: costModelFromPilot(timings, queries.length),
    setupMs,
    spentMs: now() - started,
    pilotQueries: queries.length,
    pilotConfigs: chosen.length,
  };
}
