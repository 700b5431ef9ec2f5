import { test } from "node:test";
import assert from "node:assert/strict";
import { seededRandom } from "../../src/core/random";
import { defaultSimulationSpec, runSimulation, simulateOutcomes, DEFAULT_CURVES } from "../../src/study/simulation";
import { simulationMarkdown } from "../../src/study/simulation-text";

test("simulated outcomes keep each config's true rate and neighbours agree more than distant configs", () => {
  const rates = [0.3, 0.35, 0.4];
  const outcomes = simulateOutcomes(rates, [0, 100, 500], 20000, 2000, seededRandom(4));
  outcomes.forEach((o, k) => {
    const rate = o.reduce((s, v) => s + v, 0) / o.length;
    assert.ok(Math.abs(rate - rates[k]) < 0.015, `config ${k}: ${rate} vs ${rates[k]}`);
  });
  const disagree = (a: Uint8Array, b: Uint8Array) => a.reduce((s, v, i) => s + (v !== b[i] ? 1 : 0), 0) / a.length;
  assert.ok(disagree(outcomes[0], outcomes[1]) < disagree(outcomes[0], outcomes[2]));
  // Keeping the outcome with probability exp(−100/2000): about 4.9% of queries redraw, so at most ~5% disagree.
  assert.ok(disagree(outcomes[0], outcomes[1]) < 0.1);
});

test("a small simulation is deterministic, scores all three rules, and the plateau rule errs on a monotone rise", () => {
  const spec = defaultSimulationSpec({
    curves: DEFAULT_CURVES.filter((c) => c.name === "monotone rise"),
    queries: [300],
    replicates: 20,
    resamples: 200,
  });
  const a = runSimulation(spec);
  assert.deepEqual(a, runSimulation(spec));
  assert.deepEqual(
    a.map((c) => c.rule),
    ["non-inferiority", "plateau", "kneedle"],
  );
  const plateau = a.find((c) => c.rule === "plateau")!;
  // Only overlap 500 is within a point of the true best; with ±5-point Wilson CIs the plateau rule stops early.
  assert.ok(plateau.wrong > 0.5, `plateau wrong ${plateau.wrong}`);
  const paired = a.find((c) => c.rule === "non-inferiority")!;
  assert.ok(paired.wrong <= 0.1, `paired wrong ${paired.wrong}`);
  assert.match(simulationMarkdown(a), /^\| true curve \| queries \| paired rule wrong/);
});
