import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { projectRoot } from "../../src/core/project";
import { simulationMarkdown } from "../../src/study/simulation-text";
import {
  appendixSimulation,
  SIMULATION_ENTRY,
  STORED_SIMULATION_PATH,
  sourceHashes,
  storedSimulation,
  storedSimulationNote,
} from "../../src/study/simulation-store";
import { sourceClosure } from "../../scripts/source-closure";

const root = projectRoot();
const REGENERATE = "run `npm run simulate:elbow -- --write-readme` and commit docs/verdict.md and the JSON";

test("the stored elbow simulation is of the current code: it hashes every file the simulation reaches", () => {
  const stored = storedSimulation(root);
  assert.ok(stored.file, `${stored.missing}`);
  const closure = sourceClosure(root, [SIMULATION_ENTRY]);
  assert.ok(closure.includes("src/stats/non-inferiority.ts"), `closure: ${closure.join(", ")}`);
  assert.deepEqual(Object.keys(stored.file.sources).sort(), closure, `the simulation's imports changed: ${REGENERATE}`);
  assert.deepEqual(stored.stale, [], `changed since ${STORED_SIMULATION_PATH} was stored: ${REGENERATE}`);
});

test("docs/verdict.md's simulation table is the stored run's", () => {
  const stored = storedSimulation(root);
  assert.ok(stored.file);
  const verdict = readFileSync(join(root, "docs", "verdict.md"), "utf8");
  assert.ok(verdict.includes(simulationMarkdown(stored.file.cells)), `docs/verdict.md and JSON differ: ${REGENERATE}`);
});

test("a stored run says when it is missing, and names the source files changed since it was made", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-simstore-"));
  try {
    const missing = storedSimulation(dir);
    assert.equal(missing.file, undefined);
    assert.match(missing.missing ?? "", /does not exist: run `npm run simulate:elbow -- --write-readme`/);
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "a.ts"), "export const a = 1;\n");
    writeFileSync(join(dir, "src", "b.ts"), "export const b = 2;\n");
    const real = storedSimulation(root).file!;
    const file = { ...real, sources: sourceHashes(dir, ["src/a.ts", "src/b.ts"]) };
    mkdirSync(dirname(join(dir, STORED_SIMULATION_PATH)), { recursive: true });
    writeFileSync(join(dir, STORED_SIMULATION_PATH), JSON.stringify(file));
    const fresh = storedSimulation(dir);
    assert.deepEqual(fresh.stale, []);
    assert.match(storedSimulationNote(fresh), /has not changed since/);
    writeFileSync(join(dir, "src", "b.ts"), "export const b = 3;\n");
    rmSync(join(dir, "src", "a.ts"));
    const stale = storedSimulation(dir);
    assert.deepEqual(stale.stale.sort(), ["src/a.ts", "src/b.ts"]);
    assert.match(
      storedSimulationNote(stale),
      /\*\*The code has changed since it was stored\*\* \(src\/a\.ts, src\/b\.ts\)/,
    );
    writeFileSync(join(dir, STORED_SIMULATION_PATH), "{ not json");
    assert.match(storedSimulation(dir).missing ?? "", /is not valid JSON/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("03's appendix shows the stored run unless simulationReplicates asks for one here", () => {
  const stored = appendixSimulation(0, root);
  assert.deepEqual(stored.cells, storedSimulation(root).file!.cells);
  assert.match(stored.caption, /^1,000 simulated sweeps per row; margin 1 point;/);
  assert.match(stored.note, /^Stored run of `npm run simulate:elbow`/);
  const here = appendixSimulation(2, root);
  assert.match(here.caption, /^2 simulated sweeps per row/);
  assert.equal(here.note, "Simulated here (simulationReplicates is set).");
  assert.ok(here.cells.every((cell) => cell.replicates === 2));
});
