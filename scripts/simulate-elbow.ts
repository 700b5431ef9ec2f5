// `npm run simulate:elbow`: does the elbow rule pick right? Simulates sweeps from known true hit-rate curves
// (src/study/simulation.ts) and prints how often the paired non-inferiority rule, the plateau rule and Kneedle
// pick a config truly worse than the best by more than the margin, how often they say undecided (and the paired rule
// leaning, which is not a pick), and the index size they leave on the table. `--write-readme` (named when the table
// lived in the README) puts the table into docs/verdict.md between its markers and stores the run in
// data/validation/elbow-simulation.json (notebook 03's appendix shows it), with a hash of every source file the
// simulation reaches.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { writeFileAtomic } from "../src/core/atomic-write";
import { SeamlabError } from "../src/core/errors";
import { intFlag, intListFlag, numberFlag } from "../src/cli/flags";
import { projectRoot } from "../src/core/project";
import { defaultSimulationSpec, runSimulation, type SimulationCell } from "../src/study/simulation";
import { simulationMarkdown } from "../src/study/simulation-text";
import {
  SIMULATION_ENTRY,
  STORED_SIMULATION_PATH,
  sourceHashes,
  type StoredSimulationFile,
} from "../src/study/simulation-store";
import { sourceClosure } from "./source-closure";

const START = "<!-- simulate:elbow:start -->";
const END = "<!-- simulate:elbow:end -->";
/** Where the table goes, relative to the project root. */
const DOC = "docs/verdict.md";

function main(): number {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      replicates: { type: "string" },
      queries: { type: "string" },
      margin: { type: "string" },
      resamples: { type: "string" },
      seed: { type: "string" },
      json: { type: "boolean" },
      "write-readme": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(
      "Usage: npm run simulate:elbow -- [--replicates 1000] [--queries 100,300,1000] [--margin 1] [--resamples 1000]\n" +
        "                               [--seed 1] [--json] [--write-readme]\n",
    );
    return 0;
  }
  const spec = defaultSimulationSpec({
    replicates: intFlag(values, "replicates", 1000, { min: 1, max: 100_000, unit: "sweeps" }),
    queries: intListFlag(values, "queries", [100, 300, 1000], { min: 10, max: 1_000_000, unit: "queries" }),
    margin: numberFlag(values, "margin", 1, { min: 0, max: 99, exclusiveMin: true, unit: "points" }) / 100,
    resamples: intFlag(values, "resamples", 1000, { min: 100, max: 100_000, unit: "replicates" }),
    seed: intFlag(values, "seed", 1, { min: 0, max: 2 ** 31 - 1 }),
  });
  const root = projectRoot();
  const sources = sourceHashes(root, sourceClosure(root, [SIMULATION_ENTRY]));
  const started = performance.now();
  const cells: SimulationCell[] = runSimulation(spec, (cell) => {
    if (cell.rule === "kneedle") process.stderr.write(`simulate: ${cell.curve}, ${cell.queries} queries done\n`);
  });
  const elapsed = (performance.now() - started) / 1000;
  const seconds = elapsed.toFixed(0);
  if (values.json) {
    process.stdout.write(JSON.stringify({ spec, cells }, null, 2) + "\n");
    return 0;
  }
  const caption =
    `${spec.replicates} simulated sweeps per row (overlaps ${spec.overlaps.join(", ")} at size ${spec.size}; ` +
    `margin ${100 * spec.margin} point; neighbouring overlaps share a query's outcome with probability ` +
    `exp(−gap/${spec.correlationLength}); ${spec.resamples} bootstrap replicates per decision; seed ${spec.seed}). ` +
    `"wrong": the pick is truly worse than the true best by more than the margin (share of all sweeps); ` +
    `"undecided": a cheaper config is unclear (the paired rule's safe pick still counts as its pick); "leaning": ` +
    `the paired rule's choice is not shown within the margin, or a cheaper config is within the margin of it ` +
    `(no pick); "extra index": mean index size above the cheapest truly acceptable overlap, over the sweeps ` +
    `with a pick. Regenerate: \`npm run simulate:elbow -- --write-readme\` (${seconds} s here).`;
  const table = `${simulationMarkdown(cells)}\n\n${caption}`;
  if (values["write-readme"]) {
    const docPath = join(root, DOC);
    if (!existsSync(docPath))
      throw new SeamlabError(`${DOC} does not exist: create it with ${START} and ${END} where the table goes.`);
    const doc = readFileSync(docPath, "utf8");
    const from = doc.indexOf(START);
    const to = doc.indexOf(END);
    if (from < 0 || to < from)
      throw new SeamlabError(`${DOC} has no ${START} ... ${END} markers: add them where the table goes.`);
    // The sources are hashed before the run: one edited meanwhile would store a table of other code.
    const now = sourceHashes(root, sourceClosure(root, [SIMULATION_ENTRY]));
    if (JSON.stringify(now) !== JSON.stringify(sources))
      throw new SeamlabError("the simulation's source files changed during the run: nothing written; run it again.");
    const stored: StoredSimulationFile = { spec, cells, seconds: Math.round(elapsed), sources };
    const storePath = join(root, STORED_SIMULATION_PATH);
    mkdirSync(dirname(storePath), { recursive: true });
    writeFileAtomic(storePath, JSON.stringify(stored, null, 1) + "\n");
    writeFileAtomic(docPath, `${doc.slice(0, from + START.length)}\n${table}\n${doc.slice(to)}`);
    process.stderr.write(`simulate: ${DOC} and ${STORED_SIMULATION_PATH} updated\n`);
  }
  process.stdout.write(table + "\n");
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  if (error instanceof SeamlabError) {
    process.stderr.write(`simulate: ${error.message}\n`);
    process.exitCode = 2;
  } else throw error;
}
