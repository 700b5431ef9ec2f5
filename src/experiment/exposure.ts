import { canonicalJson } from "../core/canonical-json";
import type { Doc, Query } from "../core/types";
import { exposureCount, markCutQueries, unexposedFlips } from "../measure/exposure";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpus, splitCorpusAsync, splitters } from "../splitters/registry";
import { sha256, type ResultCache } from "./cache";
import { DEFAULT_MIN_GROUP_QUERIES } from "./groups";
import { groupBy } from "./grid";
import type { CostedRow } from "./run";
import { curveRows, type DecisionSettings, type SweepCurve } from "./sweep";
import { decideByStorage } from "./verdict";

// Seam exposure of a sweep (see measure/exposure): per splitter and size, which queries a seam can cut at some
// overlap swept, and the paired verdict on those queries alone.

/** Fewer exposed queries than this decide nothing on their own. */
export const MIN_EXPOSED_QUERIES = DEFAULT_MIN_GROUP_QUERIES;

/** Characters per split call: bounds the chunks held at once. */
const BATCH_CHARS = 4_000_000;

/** Which queries (1 per byte) a boundary of some config cuts inside a gold span. */
export async function queryExposure(
  docs: readonly Doc[],
  queries: readonly Query[],
  configs: readonly SplitterConfig[],
): Promise<Uint8Array> {
  const exposed = new Uint8Array(queries.length);
  const goldDocs = new Set(queries.flatMap((q) => q.gold.map((g) => g.doc)));
  const needed = docs.filter((doc) => goldDocs.has(doc.id));
  const batches: Doc[][] = [];
  let chars = Infinity;
  for (const doc of needed) {
    if (chars >= BATCH_CHARS) {
      batches.push([]);
      chars = 0;
    }
    batches[batches.length - 1].push(doc);
    chars += doc.text.length;
  }
  for (const config of configs) {
    // A splitter that must see every document (semantic) splits the corpus whole.
    if (splitters[config.splitter]?.splitCorpusAsync)
      markCutQueries(queries, await splitCorpusAsync(docs as Doc[], config), exposed);
    else for (const batch of batches) markCutQueries(queries, splitCorpus(batch, config), exposed);
  }
  return exposed;
}

export interface SizeExposure extends ReturnType<typeof exposureCount> {
  splitter: string;
  size: number;
  unit: string;
  overlaps: number[];
  /** One byte per query: 1 when a seam can fall inside its gold span. */
  flags: Uint8Array;
}

/** Exposure per splitter and size of a finished sweep, cached under a key hashing its rows' keys. */
export async function sweepExposures(
  docs: readonly Doc[],
  queries: readonly Query[],
  { curves, rows }: { curves: readonly SweepCurve[]; rows: readonly CostedRow[] },
  cache: ResultCache,
): Promise<SizeExposure[]> {
  const out: SizeExposure[] = [];
  for (const [curve] of groupBy(curves, (c) => JSON.stringify([c.splitter, c.size, c.unit])).values()) {
    const key = sha256(canonicalJson({ exposure: 1, rows: curve.keys }));
    const stored = cache.get(key);
    let flags: Uint8Array;
    if (typeof stored === "string" && stored.length === queries.length && /^[01]*$/.test(stored)) {
      flags = Uint8Array.from(stored, (c) => (c === "1" ? 1 : 0));
    } else {
      const configs = curveRows(rows, curve).map((row) => row.config.splitter);
      flags = await queryExposure(docs, queries, configs);
      cache.put(key, Array.from(flags).join(""));
    }
    out.push({
      splitter: curve.splitter,
      size: curve.size,
      unit: curve.unit,
      overlaps: curve.points.map((p) => p.x),
      ...exposureCount(flags),
      flags,
    });
  }
  return out;
}

export type ExposedVerdict = ReturnType<typeof exposedVerdict>;

/**
 * The curve's paired rule on its exposed queries only, at margin / share: the others are whole in one chunk at every
 * overlap, so a loss of d points there is d x share over all. A share within the margin cannot move it: no verdict.
 */
export function exposedVerdict(
  curve: SweepCurve,
  rows: readonly CostedRow[],
  exposure: SizeExposure,
  settings: DecisionSettings = {},
) {
  const margin = settings.margin ?? 0.01;
  const positions: number[] = [];
  exposure.flags.forEach((flag, q) => flag === 1 && positions.push(q));
  const rowsOfCurve = curveRows(rows, curve);
  const hits = rowsOfCurve.map((row) => row.hits);
  const why =
    positions.length < MIN_EXPOSED_QUERIES
      ? ("too few exposed queries" as const)
      : exposure.share <= margin
        ? ("exposed share within the margin" as const)
        : null;
  // margin / share, rounded down to a hundredth of a point (a stricter margin, and the one printed); null with `why`
  const exposedMargin =
    why === null ? Math.floor((1e4 * margin * exposure.queries) / exposure.exposed + 1e-9) / 1e4 : null;
  return {
    queries: exposure.queries,
    exposed: exposure.exposed,
    share: exposure.share,
    margin, // the margin asked for, in points of all queries (proportion units)
    minQueries: MIN_EXPOSED_QUERIES,
    // Unexposed queries whose hit still differed between overlaps: moved by the ranking, not by a seam.
    unexposedFlips: unexposedFlips(exposure.flags, hits),
    exposedMargin,
    // Indexes into the curve's points.
    decision:
      exposedMargin === null ? null : decideByStorage(rowsOfCurve, { ...settings, margin: exposedMargin }, positions),
    why,
  };
}

/** Each curve's exposure and exposed verdict (undefined when its size has none, e.g. an interrupted sweep). */
export function curveExposedVerdicts(
  curves: readonly SweepCurve[],
  rows: readonly CostedRow[],
  exposures: readonly SizeExposure[],
  settings: DecisionSettings = {},
): ({ exposure: SizeExposure; verdict: ExposedVerdict } | undefined)[] {
  return curves.map((curve) => {
    const exposure = exposures.find(
      (e) => e.splitter === curve.splitter && e.size === curve.size && e.unit === curve.unit,
    );
    return exposure && { exposure, verdict: exposedVerdict(curve, rows, exposure, settings) };
  });
}
