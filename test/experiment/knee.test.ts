import { test } from "node:test";
import assert from "node:assert/strict";
import { kneedle, pickKnee, plateauStart } from "../../src/experiment/knee";
import { seededRandom } from "../../src/core/random";
import { SeamlabError } from "../../src/core/errors";

// The paper's Figure 2 shape, as the reference implementation kneed generates it
// (DataGenerator.figure2: x = linspace(0, 1, 10), y = -1 / (x + 0.1) + 5). kneed reports
// knee = 0.2222 and knee_y = 1.8966 for S = 1, concave, increasing.
const fig2x = Array.from({ length: 10 }, (_, i) => i / 9);
const fig2y = fig2x.map((x) => -1 / (x + 0.1) + 5);

test("kneedle finds the knee of the paper's figure 2 curve where kneed does", () => {
  const result = kneedle(fig2x, fig2y);
  assert.ok(Math.abs((result.knee as number) - 0.2222222222) < 1e-9);
  assert.ok(Math.abs((result.kneeY as number) - 1.8965517241) < 1e-9);
  assert.equal(result.kneeIndex, 2);
  assert.equal(result.reason, null);
});

test("kneedle's difference curve is the normalised curve minus the diagonal", () => {
  const result = kneedle(fig2x, fig2y);
  // Hand-computed: y normalised at x = 1/9 is (5 - 1/(1/9 + 0.1) - (5 - 10)) / ((5 - 1/1.1) - (5 - 10)) = 0.578947...
  assert.ok(Math.abs(result.normalizedY[1] - 0.5789473684) < 1e-9);
  assert.ok(Math.abs(result.difference[1] - (0.5789473684 - 1 / 9)) < 1e-9);
  assert.equal(result.difference[0], 0);
  assert.equal(result.difference[9], 0);
});

test("kneedle finds the elbow of a convex increasing curve (x squared style) near its bend", () => {
  // y = x^2 on 0..10 is convex increasing; its elbow, the point farthest below the chord, is at x = 5.
  const xs = Array.from({ length: 11 }, (_, i) => i);
  const result = kneedle(
    xs,
    xs.map((x) => x * x),
    { curve: "convex", direction: "increasing" },
  );
  assert.equal(result.knee, 5);
});

test("kneedle finds the knee of a convex decreasing curve (exponential decay) and of its mirror", () => {
  const xs = Array.from({ length: 21 }, (_, i) => i);
  const decay = xs.map((x) => Math.exp(-x / 3));
  const dec = kneedle(xs, decay, { curve: "convex", direction: "decreasing" });
  assert.ok(dec.knee !== null && dec.knee >= 3 && dec.knee <= 6, `knee ${dec.knee}`);
  // The same curve reflected left-right is convex increasing with the knee reflected.
  const inc = kneedle(xs, [...decay].reverse(), { curve: "convex", direction: "increasing" });
  assert.equal(inc.knee, 20 - (dec.knee as number));
});

test("kneedle picks the corner of a piecewise-linear curve with a known knee", () => {
  // Rises with slope 1 up to x = 30, then flat: the knee is exactly x = 30.
  const xs = [0, 10, 20, 30, 40, 50, 60, 70, 80];
  const ys = xs.map((x) => Math.min(x, 30));
  assert.equal(kneedle(xs, ys).knee, 30);
});

test("kneedle sorts points by x and works on unevenly spaced overlaps", () => {
  // The seed article's sweep (recall@5 0.62, 0.68, 0.74, 0.76, 0.76 at 0..400): its author reads the
  // knee as 100. Passed out of order on purpose.
  const result = kneedle([400, 0, 200, 50, 100], [0.76, 0.62, 0.76, 0.68, 0.74]);
  assert.equal(result.knee, 100);
  assert.equal(result.kneeIndex, 2);
});

test("kneedle declares a knee when the drop below the threshold is itself a local minimum", () => {
  // A real sweep (window 1000, recall@5 on opentelemetry-docs): the point after the peak dips, then recovers.
  // Difference curve 0, .17, .26, .50, -.19, -.12: the maximum at 200 has threshold .50 - 1/5 = .30 and the
  // next value -.19 is below it. kneed declares the same knee (it checks the next point before the reset).
  const result = kneedle([0, 50, 100, 200, 300, 400], [0.347, 0.359, 0.368, 0.388, 0.37, 0.383]);
  assert.equal(result.knee, 200);
});

test("kneedle says there is no knee on a flat curve", () => {
  const result = kneedle([0, 50, 100, 200], [0.5, 0.5, 0.5, 0.5]);
  assert.equal(result.knee, null);
  assert.match(result.reason as string, /flat/);
});

test("kneedle says there is no knee on a straight line", () => {
  const result = kneedle([0, 1, 2, 3, 4], [0, 2, 4, 6, 8]);
  assert.equal(result.knee, null);
  assert.match(result.reason as string, /no local maximum/);
});

test("kneedle declares no knee while the curve is still rising at high sensitivity", () => {
  // A concave curve without its plateau: the difference curve drops too little after its maximum.
  const xs = [0, 1, 2, 3, 4, 5];
  const ys = xs.map((x) => Math.sqrt(x));
  assert.notEqual(kneedle(xs, ys, { sensitivity: 0 }).knee, null);
  assert.equal(kneedle(xs, ys, { sensitivity: 5 }).knee, null);
});

test("kneedle online mode reports the last of two knees, offline mode the first", () => {
  // Two steps: rise to 1 by x = 2, flat, rise to 2 by x = 12, flat.
  const xs = Array.from({ length: 21 }, (_, i) => i);
  const ys = xs.map((x) => (x <= 2 ? x / 2 : x < 10 ? 1 : x <= 12 ? 1 + (x - 10) / 2 : 2));
  const offline = kneedle(xs, ys, { sensitivity: 0.5 });
  const online = kneedle(xs, ys, { sensitivity: 0.5, online: true });
  assert.equal(offline.knee, 2);
  assert.deepEqual(online.allKnees, [2, 12]);
  assert.equal(online.knee, 12);
});

test("kneedle on a noisy concave curve lands near the true knee", () => {
  const random = seededRandom(7);
  const xs = Array.from({ length: 41 }, (_, i) => i * 10);
  // Saturating curve 1 - exp(-x/60): knee (max distance to chord) near 60 * ln(400/60) ~ 114 in [0, 400].
  const ys = xs.map((x) => 1 - Math.exp(-x / 60) + (random() - 0.5) * 0.02);
  const result = kneedle(xs, ys);
  assert.ok(result.knee !== null && result.knee >= 70 && result.knee <= 160, `knee ${result.knee}`);
});

test("kneedle rejects mismatched lengths, duplicate x and non-finite values with a SeamlabError", () => {
  assert.throws(() => kneedle([0, 1], [1]), SeamlabError);
  assert.throws(() => kneedle([0, 1, 1], [1, 2, 3]), /appears twice/);
  assert.throws(() => kneedle([0, 1, 2], [1, NaN, 3]), /finite/);
});

test("plateau rule picks the smallest overlap whose CI upper bound reaches the best estimate", () => {
  const points = [
    { x: 0, y: 0.6, low: 0.55, high: 0.65 },
    { x: 50, y: 0.66, low: 0.61, high: 0.71 }, // 0.71 < 0.72: distinguishable from the best
    { x: 100, y: 0.7, low: 0.65, high: 0.75 }, // 0.75 >= 0.72: on the plateau
    { x: 200, y: 0.72, low: 0.67, high: 0.77 },
    { x: 400, y: 0.71, low: 0.66, high: 0.76 },
  ];
  const result = plateauStart(points);
  assert.deepEqual(result, { x: 100, y: 0.7, index: 2, bestX: 200, bestY: 0.72, rule: "ci" });
});

test("plateau rule without CIs falls back to the best point, or to epsilon when given", () => {
  const points = [0, 50, 100, 200, 400].map((x, i) => ({ x, y: [0.62, 0.68, 0.74, 0.76, 0.76][i] }));
  assert.equal(plateauStart(points).x, 200);
  assert.equal(plateauStart(points).rule, "best");
  const loose = plateauStart(points, { epsilon: 0.02 });
  assert.equal(loose.x, 100);
  assert.equal(loose.rule, "epsilon");
});

test("plateau rule takes the smallest x among tied best estimates", () => {
  const points = [0, 1, 2, 3].map((x) => ({ x, y: x === 0 ? 0.1 : 0.5 }));
  assert.equal(plateauStart(points).x, 1);
});

test("plateau rule with wide CIs says overlap 0 cannot be told apart from the best", () => {
  const points = [0, 100, 200, 300].map((x, i) => ({
    x,
    y: 0.5 + i * 0.01,
    low: 0.4 + i * 0.01,
    high: 0.6 + i * 0.01,
  }));
  const result = plateauStart(points);
  assert.equal(result.x, 0);
  assert.equal(result.rule, "ci");
});

test("pickKnee reports both methods and whether they agree", () => {
  const xs = [0, 10, 20, 30, 40, 50, 60];
  const points = xs.map((x) => ({ x, y: Math.min(x, 30) / 30 }));
  const report = pickKnee(points);
  assert.deepEqual(report.kneedle, { x: 30, y: 1 });
  assert.equal(report.plateau?.x, 30);
  assert.equal(report.agree, true);
  assert.deepEqual(report.notes, []);
});

test("pickKnee warns when picking from fewer than 4 points and when the methods disagree", () => {
  const few = pickKnee([
    { x: 0, y: 0.5 },
    { x: 100, y: 0.7 },
    { x: 200, y: 0.71 },
  ]);
  assert.ok(few.notes.some((n) => /fewer than 4 points/.test(n)));
  const seed = pickKnee([0, 50, 100, 200, 400].map((x, i) => ({ x, y: [0.62, 0.68, 0.74, 0.76, 0.76][i] })));
  assert.equal(seed.kneedle?.x, 100);
  assert.equal(seed.plateau?.x, 200);
  assert.equal(seed.agree, false);
  assert.ok(seed.notes.some((n) => /disagree/.test(n)));
});

test("pickKnee on a flat curve says Kneedle found no knee and the plateau starts at the first point", () => {
  const report = pickKnee([0, 50, 100, 200, 400].map((x) => ({ x, y: 0.8, low: 0.75, high: 0.85 })));
  assert.equal(report.kneedle, null);
  assert.equal(report.plateau?.x, 0);
  assert.equal(report.agree, false);
  assert.ok(report.notes.some((n) => /no knee: flat/.test(n)));
});
