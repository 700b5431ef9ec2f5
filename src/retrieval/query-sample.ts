import { parseSampleSizeRequest, type SampleSizeRequest } from "../stats/sample-request";
import { sampleIndices } from "../core/random";
import type { Query } from "../core/types";
import { thousands } from "../stats/format";

/**
 * `--query-sample auto|auto:H|N|all`: how many queries run. Only queries are sampled, once, for every config; the
 * corpus stays whole (sampling documents would remove distractors and inflate hit rates).
 */
export type QuerySampleRequest = SampleSizeRequest;

/**
 * 1,537 queries bound every hit rate's 95% CI to ±2.5 points (1.96·√(0.25/n) at p = 0.5), paired differences
 * tighter still; more cost time in every config while narrowing CIs only as √n.
 */
export const defaultQuerySampleRequest: QuerySampleRequest = { kind: "auto", halfWidth: 0.025 };

/** One fixed seed: the same flags always draw the same queries. */
const querySampleSeed = 1;

/** Queries for a 95% CI half-width of at most `halfWidth` on any proportion (worst case p = 0.5). */
export function queriesForHalfWidth(halfWidth: number): number {
  return Math.ceil((1.959964 ** 2 * 0.25) / (halfWidth * halfWidth));
}

/** Reads `--query-sample` (or a notebook's `querySample` parameter): "auto", "auto:0.02", "all" or a count. */
export function parseQuerySample(value: string | number | undefined, flag = "--query-sample"): QuerySampleRequest {
  return parseSampleSizeRequest(value, {
    flag,
    defaultRequest: defaultQuerySampleRequest,
    units: "queries",
    halfWidthOf: "a hit-rate CI half-width",
  });
}

export type QuerySample = ReturnType<typeof sampleQueries>;

function querySampleSize(population: number, request: QuerySampleRequest): number {
  if (request.kind === "all") return population;
  if (request.kind === "count") return Math.min(population, request.count);
  return Math.min(population, queriesForHalfWidth(request.halfWidth));
}

/** A seeded simple random sample of the queries, in order; a request as large as the set returns them all. */
export function sampleQueries(
  queries: readonly Query[],
  request: QuerySampleRequest = defaultQuerySampleRequest,
  seed = querySampleSeed,
  reason?: string,
) {
  const population = queries.length;
  const count = querySampleSize(population, request);
  const indexes = sampleIndices(population, count, seed);
  const sampled = count < population;
  const why = reason
    ? reason
    : request.kind === "auto"
      ? `auto: 95% CI of a hit rate at most ±${(100 * request.halfWidth).toFixed(1)} points`
      : request.kind === "count"
        ? `query sample ${thousands(request.count)}`
        : "";
  return {
    queries: indexes.map((i) => queries[i]),
    indexes, // positions in the full list, ascending
    population,
    sampled,
    description: sampled
      ? `a seeded sample of ${thousands(count)} of ${thousands(population)} queries (${why})`
      : `all ${thousands(population)} queries`,
  };
}

/** "1,537 of 2,425 header queries, a seeded sample" from a label ("2425 header queries"), or the label unsampled. */
export function sampledLabel(label: string, sample: QuerySample): string {
  if (!sample.sampled) return label;
  const rest = label.replace(/^\d[\d,]*\s+/, "");
  return `${thousands(sample.queries.length)} of ${thousands(sample.population)} ${rest}, a seeded sample`;
}

/** Advice to raise `how` (flag or parameter) when a verdict needs more queries than a sample had; else empty. */
export function raiseSampleAdvice(
  queriesNeeded: number | null | undefined,
  sample: Pick<QuerySample, "sampled" | "population" | "queries">,
  how = "--query-sample",
): string {
  if (!sample.sampled || queriesNeeded === null || queriesNeeded === undefined) return "";
  if (queriesNeeded <= sample.queries.length) return "";
  const target = Number.isFinite(queriesNeeded) && queriesNeeded < sample.population ? thousands(queriesNeeded) : "all";
  const enough = Number.isFinite(queriesNeeded) && queriesNeeded <= sample.population;
  return (
    `These ${thousands(sample.queries.length)} queries are a sample of ${thousands(sample.population)}: raise ${how} ` +
    `to ${target} before writing more queries${enough ? "" : `, though all ${thousands(sample.population)} may still not settle it`}.`
  );
}
