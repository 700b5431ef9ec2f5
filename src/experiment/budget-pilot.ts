// The pilot behind `--budget`: a few configs timed on a seeded query sample, whole rows and their queries alone.
import { evaluateSplitterConfig } from "../retrieval/evaluate-config";
import { sampleQueries } from "../retrieval/query-sample";
import { costModelFromPilot } from "./budget";
import { groupBy, splitterKey, type ExperimentConfig } from "./grid";
import { computeTaskRows, type RowOptions, type SweepInputs } from "./rows";

/** Queries the pilot runs per config. */
const pilotQueryCount = 200;

export type PilotResult = Awaited<ReturnType<typeof pilotSweepCost>>;

/** The first config of the first and of the last splitter config: the sweep's two ends (say overlap 0 and 400). */
export function pilotConfigs(configs: readonly ExperimentConfig[]): ExperimentConfig[] {
  const ends = [...groupBy(configs, splitterKey).values()].map((group) => group[0]);
  return ends.length <= 1 ? ends : [ends[0], ends[ends.length - 1]];
}

/** Distinct splitter configs of a sweep (each splits, measures and indexes the corpus once). */
export function splitCount(configs: readonly ExperimentConfig[]): number {
  return new Set(configs.map(splitterKey)).size;
}

/** Times the pilot; with a reranker the per-query part is an underestimate (reranking is not in the query timing). */
export async function pilotSweepCost(
  inputs: SweepInputs,
  configs: readonly ExperimentConfig[],
  options: RowOptions & { now?: () => number; separateSetup?: boolean } = {},
) {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const queries = sampleQueries(inputs.queries, { kind: "count", count: pilotQueryCount }).queries;
  const chosen = pilotConfigs(configs);
  const timings: { rowMs: number; queryMs: number }[] = [];
  const timeRow = async (config: ExperimentConfig) => {
    const t0 = now();
    await computeTaskRows({ docs: inputs.docs, queries, sample: inputs.sample }, [config], ["budget-pilot"], options);
    return now() - t0;
  };
  for (const config of chosen) {
    const rowMs = await timeRow(config);
    // The queries get their wall-clock share of the call's time on the pilot's clock, so a CPU-time pilot on a busy
    // machine does not count waiting as query time (at load 9 wall-timed queries took 79 ms against 16 ms idle).
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
  // With `separateSetup`: what the first config paid once for the whole sweep (document tables, warm-up), its row
  // timed again warm and subtracted; `model.fixedMs` is then the warm rows' mean.
  let setupMs = 0;
  if (options.separateSetup && chosen.length > 0) {
    const warmMs = await timeRow(chosen[0]);
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
