// The elbow simulation as `npm run simulate:elbow -- --write-readme` stored it, for notebook 03's appendix: it does not
// depend on the corpus, so recomputing it per report cost seconds for a noisier copy. The file hashes every source file
// the simulation reaches; a change since makes the run "stale", which the page says (and a test fails on).
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../core/project";
import { thousands } from "../stats/format";
import { defaultSimulationSpec, runSimulation, type SimulationCell, type SimulationSpec } from "./simulation";

export const STORED_SIMULATION_PATH = "data/validation/elbow-simulation.json";

/** The module whose import closure the stored run records. */
export const SIMULATION_ENTRY = "src/study/simulation.ts";

export interface StoredSimulationFile {
  spec: SimulationSpec;
  cells: SimulationCell[];
  seconds: number;
  /** sha256 of each source file the simulation reached, by path relative to the project root */
  sources: Record<string, string>;
}

export interface StoredSimulation {
  file?: StoredSimulationFile;
  /** source files changed (or gone) since the run was stored */
  stale: string[];
  /** why there is no stored run, when there is none */
  missing?: string;
}

function fileSha256(path: string): string | undefined {
  return existsSync(path) ? createHash("sha256").update(readFileSync(path)).digest("hex") : undefined;
}

/** Hashes of `files` (paths relative to `root`), for the `sources` field. */
export function sourceHashes(root: string, files: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of files) {
    const hash = fileSha256(join(root, file));
    if (hash === undefined) throw new Error(`${file} does not exist under ${root}`);
    out[file] = hash;
  }
  return out;
}

export function storedSimulation(root: string = projectRoot()): StoredSimulation {
  const path = join(root, STORED_SIMULATION_PATH);
  if (!existsSync(path)) {
    return {
      stale: [],
      missing: `${STORED_SIMULATION_PATH} does not exist: run \`npm run simulate:elbow -- --write-readme\`.`,
    };
  }
  let file: StoredSimulationFile;
  try {
    file = JSON.parse(readFileSync(path, "utf8")) as StoredSimulationFile;
  } catch (error) {
    return { stale: [], missing: `${STORED_SIMULATION_PATH} is not valid JSON (${(error as Error).message}).` };
  }
  if (!Array.isArray(file.cells) || file.cells.length === 0 || typeof file.sources !== "object" || !file.spec) {
    return { stale: [], missing: `${STORED_SIMULATION_PATH} has no spec, cells or sources.` };
  }
  const stale = Object.entries(file.sources)
    .filter(([source, hash]) => fileSha256(join(root, source)) !== hash)
    .map(([source]) => source);
  return { file, stale };
}

/** One line under the table: where it came from, and whether the code has changed since. */
export function storedSimulationNote(stored: StoredSimulation): string {
  if (!stored.file) return stored.missing ?? "";
  const { spec, seconds } = stored.file;
  const made =
    `Stored run of \`npm run simulate:elbow\` (${thousands(spec.replicates)} sweeps per row, ` +
    `${thousands(spec.resamples)} bootstrap replicates per decision, seed ${spec.seed}; ` +
    `${Math.round(seconds)} s where it was made), the same table as docs/verdict.md's.`;
  if (stored.stale.length === 0) return `${made} The simulation's code has not changed since.`;
  return (
    `${made} **The code has changed since it was stored** (${stored.stale.join(", ")}): this table may no longer ` +
    "describe the rule above. Re-run `npm run simulate:elbow -- --write-readme`, or set `simulationReplicates` " +
    "to recompute it here."
  );
}

/** Notebook 03's appendix: the stored run, else (or when `replicates` > 0) a smaller one simulated here. */
export function appendixSimulation(replicates: number, root: string = projectRoot()) {
  const stored = storedSimulation(root);
  const file = replicates > 0 ? undefined : stored.file;
  const spec = file?.spec ?? defaultSimulationSpec({ replicates: replicates > 0 ? replicates : 200, resamples: 500 });
  const cells = file?.cells ?? runSimulation(spec);
  const caption =
    `${thousands(spec.replicates)} simulated sweeps per row; margin ${100 * spec.margin} point; ` +
    '"wrong": truly worse than the true best by more than the margin';
  const note = file
    ? storedSimulationNote(stored)
    : `Simulated here (${replicates > 0 ? "simulationReplicates is set" : (stored.missing ?? "")}).`;
  return { cells, caption, note };
}
