// Notebook 06's numbers with lsa fitted on every text against lsa fitted on a seeded sample (the default),
// side by side in one run: semantic chunk count and mean length, dense hit rate@5 per arm with its Wilson 95% CI,
// mean neighbour cosine; wall and CPU seconds of each. The sampled numbers must sit inside the full fit's CIs.
//
// Usage: SEAMLAB_DATA_DIR=../shared/data npm run bench:lsa-sample [-- --corpus NAME] [--sample N]
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultLsaFitSample, type LsaOptions } from "../src/embed/lsa";
import { loadRetrievalInputs } from "../src/study/inputs";
import { matchedSize, retrieveArm, semanticArm, splitterArm, type ArmRetrieval } from "../src/study/semantic";

const { values } = parseArgs({ options: { corpus: { type: "string" }, sample: { type: "string" } } });
const dataDir = process.env.SEAMLAB_DATA_DIR;
if (!dataDir) {
  process.stdout.write("bench:lsa-sample skipped: SEAMLAB_DATA_DIR is unset (needs opentelemetry-docs).\n");
  process.exit(0);
}
const corpus = join(dataDir, values.corpus ?? "opentelemetry-docs");
const sample = values.sample ? Number(values.sample) : defaultLsaFitSample;

interface Outcome {
  seconds: number;
  cpuSeconds: number;
  semanticChunks: number;
  semanticMeanLength: number;
  results: ArmRetrieval[];
}

async function notebook06(lsa: LsaOptions): Promise<Outcome> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const inputs = loadRetrievalInputs(corpus);
  const semantic = await semanticArm(inputs.docs, { percentile: 10, maxLength: 1000, overlapSentences: 1, lsa });
  const matched = matchedSize(semantic);
  const arms = [
    semantic,
    splitterArm(inputs.docs, "recursive", 1000, 200),
    splitterArm(inputs.docs, "recursive", matched, 0, `recursive ${matched}/0`),
  ];
  const results: ArmRetrieval[] = [];
  for (const a of arms) results.push(...(await retrieveArm(a, inputs.queries, 5, lsa)));
  const cpu = process.cpuUsage(cpu0);
  return {
    seconds: (performance.now() - t0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    semanticChunks: semantic.seams.chunks,
    semanticMeanLength: semantic.seams.chunkLength.mean,
    results,
  };
}

const pct = (x: number) => (100 * x).toFixed(1);
process.stderr.write(`lsa-sample: notebook 06 on ${corpus}, full fit vs a ${sample}-text sample\n`);
const full = await notebook06({ fitSample: Infinity });
process.stderr.write(`full fit: ${full.seconds.toFixed(1)} s wall\n`);
const sampled = await notebook06({ fitSample: sample });
process.stderr.write(`sampled fit: ${sampled.seconds.toFixed(1)} s wall\n`);

const lines: string[] = [];
let outside = 0;
lines.push(`corpus ${corpus}; lsa basis: every text vs a seeded sample of ${sample} texts`);
lines.push(
  `semantic chunks: ${full.semanticChunks} vs ${sampled.semanticChunks} (${pct(sampled.semanticChunks / full.semanticChunks - 1)}%); mean length ${full.semanticMeanLength.toFixed(1)} vs ${sampled.semanticMeanLength.toFixed(1)} chars`,
);
lines.push("arm                  retriever                hit rate@5 % full [95% CI]  hit rate@5 % sampled  inside CI");
for (const [i, f] of full.results.entries()) {
  const s = sampled.results[i];
  const ci = f.summary.hitRateCI;
  const inside = s.summary.hitRate >= ci.low && s.summary.hitRate <= ci.high;
  if (!inside) outside++;
  lines.push(
    `${f.arm.padEnd(20)} ${f.retriever.padEnd(24)} ${`${pct(f.summary.hitRate).padStart(5)} [${pct(ci.low)}, ${pct(ci.high)}]`.padEnd(26)}  ${pct(s.summary.hitRate).padStart(20)}  ${inside ? "yes" : "NO"}`,
  );
}
for (const [i, f] of full.results.entries()) {
  if (!f.neighbourSummary) continue;
  const s = sampled.results[i].neighbourSummary!;
  lines.push(
    `${f.arm}: mean neighbour cosine ${f.neighbourSummary.meanSimilarity.toFixed(3)} vs ${s.meanSimilarity.toFixed(3)}, Pearson r ${f.neighbourSummary.correlation.toFixed(3)} vs ${s.correlation.toFixed(3)}`,
  );
}
lines.push(
  `time: full ${full.seconds.toFixed(1)} s wall / ${full.cpuSeconds.toFixed(1)} s CPU; sampled ${sampled.seconds.toFixed(1)} s wall / ${sampled.cpuSeconds.toFixed(1)} s CPU; ` +
    `${(full.cpuSeconds / sampled.cpuSeconds).toFixed(1)}x less CPU (load average ${loadavg()[0].toFixed(1)}: the machine is shared, wall times are noisy)`,
);
lines.push(`hit rates outside the full fit's CI: ${outside} of ${full.results.length}`);
process.stdout.write(lines.join("\n") + "\n");
if (outside > 0) process.exitCode = 1;
