import { SeamlabError } from "../core/errors";

// Knee picking for sweep curves, two methods side by side because with a handful of noisy points neither is
// trustworthy alone: Kneedle (Satopaa et al. 2011, "Finding a 'Kneedle' in a Haystack") and a plateau rule.

export interface KneedleOptions {
  /** S in the paper: how many "average x steps" the difference curve must drop below a local maximum. Default 1. */
  sensitivity?: number;
  /** "concave" (default) finds knees, "convex" elbows. */
  curve?: "concave" | "convex";
  /** Default "increasing". */
  direction?: "increasing" | "decreasing";
  /** The paper's online variant: keep scanning and report the last knee confirmed. */
  online?: boolean;
}

function checkedPairs(xs: readonly number[], ys: readonly number[], name: string): { x: number; y: number }[] {
  if (xs.length !== ys.length)
    throw new SeamlabError(`${name}: x has ${xs.length} values but y has ${ys.length}; pass one y per x.`);
  const pairs = xs.map((x, i) => ({ x, y: ys[i] }));
  for (const p of pairs) {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y))
      throw new SeamlabError(`${name}: every x and y must be a finite number, got (${p.x}, ${p.y}).`);
  }
  pairs.sort((a, b) => a.x - b.x);
  for (let i = 1; i < pairs.length; i++) {
    if (pairs[i].x === pairs[i - 1].x)
      throw new SeamlabError(`${name}: x = ${pairs[i].x} appears twice; pass one point per x.`);
  }
  return pairs;
}

function normalize(values: number[]): number[] {
  const [min, max] = [Math.min(...values), Math.max(...values)];
  return values.map((v) => (v - min) / (max - min));
}

/**
 * Kneedle on a discrete curve; other shapes are mirrored into a concave increasing one (difference y - x). The knee's
 * x, y and index in the input sorted by x are null with a `reason` when there is none; `allKnees`: every knee
 * confirmed, in scan order; `normalizedX`/`normalizedY`: the curve normalised to [0,1], turned concave increasing.
 */
export function kneedle(xs: readonly number[], ys: readonly number[], options: KneedleOptions = {}) {
  const { sensitivity = 1, curve = "concave", direction = "increasing" } = options;
  if (!(sensitivity >= 0)) throw new SeamlabError(`kneedle: sensitivity must be >= 0, got ${sensitivity}.`);
  const pairs = checkedPairs(xs, ys, "kneedle");
  const n = pairs.length;
  const none = (reason: string, nx: number[] = [], ny: number[] = [], diff: number[] = []) => ({
    knee: null,
    kneeY: null,
    kneeIndex: null,
    allKnees: [] as number[],
    reason,
    normalizedX: nx,
    normalizedY: ny,
    difference: diff,
  });
  if (n < 3) return none(`only ${n} point(s): a knee needs at least 3`);
  if (new Set(pairs.map((p) => p.y)).size === 1) return none("flat curve: every y is equal, so there is no knee");

  const xn = normalize(pairs.map((p) => p.x));
  const yn = normalize(pairs.map((p) => p.y));
  // Mirror in x (reverse order) for concave-decreasing and convex-increasing; flip y for the convex ones.
  const mirrored = (curve === "concave") === (direction === "decreasing");
  const flipped = curve === "convex";
  const order = pairs.map((_, i) => (mirrored ? n - 1 - i : i));
  const tx = order.map((i) => (mirrored ? 1 - xn[i] : xn[i]));
  const ty = order.map((i) => (flipped ? 1 - yn[i] : yn[i]));
  const diff = tx.map((x, i) => ty[i] - x);
  // Interior local maxima / minima of the difference curve (the first point of a flat run counts).
  const isMax = diff.map((d, i) => i > 0 && i < n - 1 && d >= diff[i - 1] && d > diff[i + 1] && risesInto(diff, i));
  const isMin = diff.map((d, i) => i > 0 && i < n - 1 && d <= diff[i - 1] && d < diff[i + 1]);
  if (!isMax.some(Boolean))
    return none("the difference curve has no local maximum: the curve has no knee of this shape", tx, ty, diff);
  const meanStep = 1 / (n - 1);
  const knees: number[] = [];
  let threshold: number | null = null;
  let candidate = -1;
  for (let i = 0; i < n; i++) {
    // A drop below the threshold counts even when it lands on a local minimum.
    if (threshold !== null && diff[i] < threshold) {
      knees.push(candidate);
      threshold = null;
      if (!options.online) break;
    }
    if (isMax[i]) {
      threshold = diff[i] - sensitivity * meanStep;
      candidate = i;
    } else if (isMin[i]) {
      // The paper: turning back up before the drop waits for the next local maximum.
      threshold = null;
    }
  }
  if (knees.length === 0) {
    return none(
      `no local maximum of the difference curve was followed by a drop of ${sensitivity} average x step(s): ` +
        "the curve is still rising (or too short) for a knee at this sensitivity",
      tx,
      ty,
      diff,
    );
  }
  const last = order[knees[knees.length - 1]];
  return {
    knee: pairs[last].x,
    kneeY: pairs[last].y,
    kneeIndex: last,
    allKnees: knees.map((t) => pairs[order[t]].x),
    reason: null,
    normalizedX: tx,
    normalizedY: ty,
    difference: diff,
  };
}

/** True when the flat run ending at i was entered from below (so a plateau's first point is the maximum). */
function risesInto(diff: number[], i: number): boolean {
  let j = i;
  while (j > 0 && diff[j - 1] === diff[i]) j--;
  return j > 0 && diff[j - 1] < diff[i];
}

/** An estimate and, optionally, its 95% CI. */
export interface CurvePoint {
  x: number;
  y: number;
  low?: number;
  high?: number;
}

export interface PlateauOptions {
  /** A point within epsilon of the best estimate counts as on the plateau. Default 0 (CI rule only). */
  epsilon?: number;
}

const RULE_TEXT = {
  ci: "its CI reaches the best estimate",
  epsilon: "within epsilon of the best",
  best: "the best point",
};

/**
 * The smallest x whose CI upper bound reaches the best estimate (`bestX`, `bestY`: at the smallest x among ties), or
 * whose estimate is within `epsilon` of it: the cheapest point the data cannot tell apart from the best, where
 * Kneedle may chase noise.
 */
export function plateauStart(points: readonly CurvePoint[], options: PlateauOptions = {}) {
  const epsilon = options.epsilon ?? 0;
  if (!(epsilon >= 0)) throw new SeamlabError(`plateau: epsilon must be >= 0, got ${epsilon}.`);
  if (points.length === 0)
    throw new SeamlabError("plateau: the curve has no points; run a sweep with at least one config.");
  const [xs, ys] = [points.map((p) => p.x), points.map((p) => p.y)];
  checkedPairs(xs, ys, "plateau");
  const sorted = [...points].sort((a, b) => a.x - b.x);
  let best = 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i].y > sorted[best].y) best = i;
  const bestY = sorted[best].y;
  for (let i = 0; i <= best; i++) {
    const p = sorted[i];
    const byCi = p.high !== undefined && p.high >= bestY;
    // The 1e-12 absorbs float noise (0.76 - 0.74 > 0.02 in binary).
    const byEpsilon = bestY - p.y <= epsilon + 1e-12;
    if (i === best || byCi || byEpsilon) {
      return {
        x: p.x,
        y: p.y,
        index: i,
        bestX: sorted[best].x,
        bestY,
        rule: (i === best ? "best" : byCi ? "ci" : "epsilon") as keyof typeof RULE_TEXT,
      };
    }
  }
  throw new Error("unreachable: the best point always qualifies");
}

export interface KneeOptions extends KneedleOptions, PlateauOptions {}

export type KneeReport = ReturnType<typeof pickKnee>;

/** The fewest points from which a knee is picked without a warning. */
const MIN_KNEE_POINTS = 4;

/** Runs both methods on a sweep curve and says how far to trust it (`notes`: too few points, no knee, disagreement). */
export function pickKnee(points: readonly CurvePoint[], options: KneeOptions = {}) {
  const notes: string[] = [];
  if (points.length < MIN_KNEE_POINTS) {
    notes.push(
      `only ${points.length} point(s): a knee picked from fewer than ` +
        `${MIN_KNEE_POINTS} points is unreliable; sweep more overlaps`,
    );
  }
  if (points.length === 0) return { points: 0, kneedle: null, plateau: null, agree: false, notes };
  const [xs, ys] = [points.map((p) => p.x), points.map((p) => p.y)];
  const k = kneedle(xs, ys, options);
  const plateau = plateauStart(points, options);
  if (k.knee === null) notes.push(`Kneedle found no knee: ${k.reason}`);
  const agree = k.knee !== null && k.knee === plateau.x;
  if (k.knee !== null && !agree) {
    const rule = RULE_TEXT[plateau.rule];
    notes.push(`the methods disagree: Kneedle picks x = ${k.knee}, the plateau rule picks x = ${plateau.x} (${rule})`);
  }
  return {
    points: points.length,
    kneedle: k.knee === null ? null : { x: k.knee, y: k.kneeY as number },
    plateau: { x: plateau.x, y: plateau.y, rule: plateau.rule, bestX: plateau.bestX, bestY: plateau.bestY },
    agree,
    notes,
  };
}
