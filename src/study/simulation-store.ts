// The elbow simulation as `npm run simulate:elbow -- --write-readme` stored it (data/validation/elbow-simulation.json,
// 1,000 sweeps per row), for notebook 03's appendix. The simulation does not depend on the corpus, so recomputing
// it in every report cost seconds of CPU for a noisier copy of the same table. The file records a hash of every
// source file the simulation reaches; a file changed since then makes the stored run "stale", which the page says
// (and `test/study/simulation-store.test.ts` fails, so a changed rule cannot ship with an old table).
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../core/project";
import { thousands } from "../stats/format";
import { defaultSimulationSpec, runSimulation, type SimulationCell, type SimulationSpec } from "./simulation";

/** Where the stored run lives, relative to the project root. */
export const STORED_SIMULATION_PATH = "data/validation/elbow-simulation.json";

/** The module whose import closure the stored run records. */
export const SIMULATION_ENTRY = "src/study/simulation.ts";

export interface StoredSimulationFile {
  spec: SimulationSpec;
  cells: SimulationCell[];
  /** Seconds the run took where it was made. */
  seconds: number;
  /** sha256 of each source file the simulation reached, by path relative to the project root. */
  sources: Record<string, string>;
}

export interface StoredSimulation {
  file?: StoredSimulationFile;
  /** Source files changed (or gone) since the run was stored, relative to the project root. */
  stale: string[];
  /** Why there is no stored run, when there is none. */
  missing?: string;
}

/** sha256 of a file's bytes, or undefined when it does not exist. */
export function fileSha256(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  return createHash("sha256").update(readFileSync(path)).digest("hex");
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

/** The stored run and the source files changed since it was made. */
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

export interface AppendixSimulation {
  cells: SimulationCell[];
  /** The table's caption: sweeps per row, margin, what "wrong" means. */
  caption: string;
  /** Where the table came from (storedSimulationNote, or why it was simulated here). */
  note: string;
}

/**
 * Notebook 03's appendix: the stored run, or `replicates` sweeps per row simulated here (500 bootstrap replicates
 * per decision) when `replicates` > 0 or there is no stored run (then 200 per row).
 */
export function appendixSimulation(replicates: number, root: string = projectRoot()): AppendixSimulation {
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
