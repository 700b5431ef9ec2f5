// `npx tsx scripts/verdict-fixture.ts [--corpus fastify-docs] [--queries headers] [--overlaps 0,50,...]`: writes
// test/fixtures/verdict/<corpus>-<queries>.json, the per-query outcomes of a real overlap sweep (one "0"/"1" string
// per overlap: hit@5 of each query, derived bits, no corpus text), which test/stats/non-inferiority-subsets.test.ts
// decides on every sub-grid. The sweep is the CLI's default one (langchain, size 1000, k 5, BM25), run in this thread
// (cached rows are reused).
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { writeFileAtomic } from "../src/core/atomic-write";
import { projectRoot } from "../src/core/project";
import { loadEvaluationInputs } from "../src/cli/flag-groups";
import { runOverlapSweep } from "../src/experiment/sweep";

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { corpus: { type: "string" }, queries: { type: "string" }, overlaps: { type: "string" } },
  });
  const corpus = values.corpus ?? "fastify-docs";
  const queries = values.queries ?? "headers";
  const overlaps = (values.overlaps ?? "0,50,100,150,200,300,400").split(",").map(Number);
  const inputs = loadEvaluationInputs({ corpus, queries });
  const result = await runOverlapSweep(
    { docs: inputs.docs, queries: inputs.queries },
    { splitter: "langchain", size: 1000, overlaps },
    { workers: 0, quiet: true },
  );
  const command = `npx tsx scripts/verdict-fixture.ts --corpus ${corpus} --queries ${queries} --overlaps ${overlaps.join(",")}`;
  const fixture = {
    note:
      `Per-query hit@5 outcomes (1 hit, 0 miss; the same query order in every string) of a real overlap sweep, ` +
      `derived bits only. Made by: ${command}`,
    corpus,
    queries: inputs.queryLabel,
    splitter: "langchain",
    size: 1000,
    k: 5,
    configs: result.rows.map((row) => ({
      overlap: row.config.splitter.overlap,
      storageBytes: row.cost.storageBytes,
      hits: row.hits,
    })),
  };
  const path = join(projectRoot(), "test", "fixtures", "verdict", `${corpus}-${queries}.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, JSON.stringify(fixture, null, 1) + "\n");
  process.stderr.write(`verdict-fixture: ${path} (${result.rows.length} configs, ${inputs.queries.length} queries)\n`);
}

void main();
