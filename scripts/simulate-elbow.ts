// `npm run simulate:elbow`: does the elbow rule pick right? Simulates sweeps from known true hit-rate curves
// (src/study/simulation.ts) and prints how often the paired non-inferiority rule, the plateau rule and Kneedle
// pick a config truly worse than the best by more than the margin, how often they say undecided, and the index
// size they leave on the table. `--write-readme` puts the table into README.md between its markers.
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SeamlabError } from "../src/core/errors";
import { intFlag, intListFlag, numberFlag } from "../src/cli/flags";
import { defaultSimulationSpec, runSimulation, simulationMarkdown, type SimulationCell } from "../src/study/simulation";

const START = "<!-- simulate:elbow:start -->";
const END = "<!-- simulate:elbow:end -->";

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
  const started = performance.now();
  const cells: SimulationCell[] = runSimulation(spec, (cell) => {
    if (cell.rule === "kneedle") process.stderr.write(`simulate: ${cell.curve}, ${cell.queries} queries done\n`);
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (values.json) {
    process.stdout.write(JSON.stringify({ spec, cells }, null, 2) + "\n");
    return 0;
  }
  const caption =
    `${spec.replicates} simulated sweeps per row (overlaps ${spec.overlaps.join(", ")} at size ${spec.size}; ` +
    `margin ${100 * spec.margin} point; neighbouring overlaps share a query's outcome with probability ` +
    `exp(−gap/${spec.correlationLength}); ${spec.resamples} bootstrap replicates per decision; seed ${spec.seed}). ` +
    `"wrong": the pick is truly worse than the true best by more than the margin; "undecided": the rule gives no ` +
    `settled answer; "extra index": mean index size above the cheapest truly acceptable overlap, over the sweeps ` +
    `with a pick. Regenerate: \`npm run simulate:elbow -- --write-readme\` (${seconds} s here).`;
  const table = `${simulationMarkdown(cells)}\n\n${caption}`;
  if (values["write-readme"]) {
    const readme = readFileSync("README.md", "utf8");
    const from = readme.indexOf(START);
    const to = readme.indexOf(END);
    if (from < 0 || to < from) throw new SeamlabError(`README.md has no ${START} ... ${END} markers.`);
    writeFileSync("README.md", `${readme.slice(0, from + START.length)}\n${table}\n${readme.slice(to)}`);
    process.stderr.write("simulate: README.md updated\n");
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
