// Notebooks 03 and 04's retrieval work on every query against the default query sample (auto), side by side in
// one run on opentelemetry-docs: wall and CPU seconds of each, their ratio, and whether each sampled hit rate's
// 95% CI covers the all-queries value. Nothing is cached (every config is computed in every arm); the sampled arm
// runs before and after the full one and its times are averaged.
//
// Usage: SEAMLAB_DATA_DIR=../shared/data npx tsx bench/query-sample.ts [--corpus NAME]
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runGrid } from "../src/experiment/run";
import { runOverlapSweep } from "../src/experiment/sweep";
import { normalizeConfig, type ExperimentConfig } from "../src/experiment/grid";
import { loadRetrievalInputs, type RetrievalInputs } from "../src/study/inputs";
import { lsaSpec } from "../src/study/dense";

const { values } = parseArgs({ options: { corpus: { type: "string" } } });
const dataDir = process.env.SEAMLAB_DATA_DIR;
if (!dataDir) {
  process.stdout.write("bench:query-sample skipped: SEAMLAB_DATA_DIR is unset (needs opentelemetry-docs).\n");
  process.exit(0);
}
const corpus = join(dataDir, values.corpus ?? "opentelemetry-docs");
const overlaps = [0, 200, 400];
const options = { workers: 0, quiet: true, cacheDir: null, metric: "hitRate" as const };

/** Notebook 04's grid at two overlaps: plain top-5, MMR and a dense reranker at three first-stage depths. */
function redundancyConfigs(): ExperimentConfig[] {
  const configs: ExperimentConfig[] = [];
  for (const overlap of [0, 200]) {
    const splitter = { splitter: "recursive", size: 1000, overlap };
    configs.push(normalizeConfig({ splitter, retrieval: { k: 5 } }));
    for (const depth of [5, 10, 20]) {
      const mmr = { k: depth, finalK: 5, reranker: "mmr", rerankerOptions: { lambda: 0.5 } };
      configs.push(normalizeConfig({ splitter, retrieval: mmr }));
      const dense = { k: depth, finalK: 5, reranker: "dense", rerankerOptions: lsaSpec(128) };
      configs.push(normalizeConfig({ splitter, retrieval: dense }));
    }
  }
  return configs;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; seconds: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await run();
  const cpu = process.cpuUsage(cpu0);
  return { value, seconds: (performance.now() - t0) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
}

async function arm(inputs: RetrievalInputs) {
  const data = { docs: inputs.docs, queries: inputs.queries };
  const bm25 = await timed(() => runOverlapSweep(data, { splitter: "langchain", size: 1000, overlaps }, options));
  const dense = await timed(() =>
    runOverlapSweep(
      data,
      {
        splitter: "langchain",
        size: 1000,
        overlaps,
        retriever: "dense",
        retrieverSettings: { embedder: lsaSpec(128) },
      },
      options,
    ),
  );
  const grid = await timed(() => runGrid(data, redundancyConfigs(), options));
  const rates = [...bm25.value.rows, ...dense.value.rows, ...grid.value.rows].map((r) => r.retrieval);
  return { bm25, dense, grid, rates };
}

const mean = <T>(a: { value: T; seconds: number; cpu: number }, b: { seconds: number; cpu: number }) => ({
  value: a.value,
  seconds: (a.seconds + b.seconds) / 2,
  cpu: (a.cpu + b.cpu) / 2,
});
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const all = loadRetrievalInputs(corpus, undefined, { querySample: "all" });
const auto = loadRetrievalInputs(corpus);
process.stdout.write(`bench:query-sample ${corpus}: all = ${all.queryLabel}; auto = ${auto.queryLabel}\n`);
process.stdout.write(`load average before: ${load()}\n`);
// A warm-up on 50 queries first (module loading, JIT), then all queries between two sampled runs, so neither arm
// pays the cold start and a drift in the machine's load shows up as a difference between the two sampled runs.
await arm({ ...auto, queries: auto.queries.slice(0, 50) });
const before = await arm(auto);
const full = await arm(all);
const after = await arm(auto);
const sampled = {
  ...before,
  bm25: mean(before.bm25, after.bm25),
  dense: mean(before.dense, after.dense),
  grid: mean(before.grid, after.grid),
};
process.stdout.write(
  `sampled runs before / after the full one (wall s): ` +
    (["bm25", "dense", "grid"] as const)
      .map((p) => `${p} ${before[p].seconds.toFixed(1)} / ${after[p].seconds.toFixed(1)}`)
      .join(", ") +
    "\n",
);
process.stdout.write(`load average after: ${load()}\n`);
for (const part of ["bm25", "dense", "grid"] as const) {
  const [a, s] = [full[part], sampled[part]];
  process.stdout.write(
    `${part.padEnd(5)}  all ${a.seconds.toFixed(1)} s (cpu ${a.cpu.toFixed(1)})  auto ${s.seconds.toFixed(1)} s ` +
      `(cpu ${s.cpu.toFixed(1)})  all/auto ${(a.seconds / s.seconds).toFixed(2)}x wall, ${(a.cpu / s.cpu).toFixed(2)}x cpu\n`,
  );
}
const covered = full.rates.filter((r, i) => {
  const ci = sampled.rates[i].hitRateCI;
  return ci.low <= r.hitRate && r.hitRate <= ci.high;
}).length;
process.stdout.write(
  `sampled hit-rate CIs covering the all-queries value: ${covered} of ${full.rates.length} configs\n`,
);
