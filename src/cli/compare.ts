import type { SplitterConfig } from "../splitters/config";
import { evaluateSplitterConfig, type ConfigEvaluation } from "../retrieval/evaluate-config";
import { pairedComparison } from "../stats/paired";
import { wilsonInterval } from "../stats/proportion";
import { evaluationOptionsFrom, loadEvaluationInputs, retrievalFlags, retrievalHelp } from "./flag-groups";
import { configPairFlags, configPairFromFlags } from "./config-spec";
import { pct, pctInterval } from "../study/format";
import { pText } from "../stats/format";
import { infinityAsText, printJson } from "./format";
import { createProgress } from "../experiment/progress";
import { commandFlags } from "./flags";

const describe = (c: SplitterConfig) => `${c.splitter}:${c.size}:${c.overlap}:${c.unit ?? "chars"}`;

function sideJson(config: SplitterConfig, { summary, indexRatio }: ConfigEvaluation) {
  const { hits, hitRate, hitRateCI, meanDistinct } = summary;
  return { config, hits, hitRate, hitRateCI, meanDistinct, indexRatio };
}

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    { ...retrievalFlags, ...configPairFlags },
    `Usage: seamlab compare [--corpus SPEC] [--queries headers|ict|FILE] --a ` +
      `splitter:size:overlap[:unit] --b splitter:size:overlap[:unit] [--json]\n\n` +
      `  wins = queries only A hits, losses = queries only B hits, diff = hit rate A - hit rate B,\n` +
      `  mcnemarP = exact two-sided McNemar p on wins vs losses, ` +
      `diffCI = paired bootstrap 95% CI of diff,\n  never narrower than Tango's score interval\n${retrievalHelp}`,
  );
  if (!values) return 0;
  const [configA, configB] = configPairFromFlags(values, "--a langchain:1000:200 --b langchain:1000:0");
  const options = evaluationOptionsFrom(values);
  const inputs = loadEvaluationInputs(values);
  // One tick per config: once A is done, the ETA is B's expected time (same corpus, same queries).
  const progress = createProgress(2, { label: "compare" });
  const a = await evaluateSplitterConfig(inputs.docs, inputs.queries, configA, options);
  progress.tick();
  const b = await evaluateSplitterConfig(inputs.docs, inputs.queries, configB, options);
  progress.tick();
  progress.done();
  const comparison = pairedComparison(
    a.outcomes.map((o) => o.hit),
    b.outcomes.map((o) => o.hit),
    { seed: options.seed },
  );
  const report = {
    corpus: inputs.corpus,
    queriesFrom: inputs.source.kind,
    queryLabel: inputs.queryLabel,
    querySample: { population: inputs.querySample.population, description: inputs.querySample.description },
    k: options.k,
    retriever: a.summary.retriever,
    a: sideJson(configA, a),
    b: sideJson(configB, b),
    ...comparison,
  };
  if (values.json) {
    printJson(report, infinityAsText);
    return 0;
  }
  const ciA = wilsonInterval(a.summary.hits, a.summary.queries);
  const ciB = wilsonInterval(b.summary.hits, b.summary.queries);
  process.stdout.write(
    [
      `corpus ${inputs.corpus}: ${inputs.queryLabel}, k=${options.k}, ${a.summary.retriever}`,
      `A ${describe(configA)}: hit rate ${pct(comparison.hitRateA)} ${pctInterval(ciA)}, index ${a.indexRatio.toFixed(2)}x`,
      `B ${describe(configB)}: hit rate ${pct(comparison.hitRateB)} ${pctInterval(ciB)}, index ${b.indexRatio.toFixed(2)}x`,
      `only A hits (wins) ${comparison.wins}, only B hits (losses) ${comparison.losses}, ties ${comparison.ties}`,
      `A - B = ${pct(comparison.diff)}, 95% CI ${pctInterval(comparison.diffCI)}, exact McNemar ${pText(comparison.mcnemarP)}`,
    ].join("\n") + "\n",
  );
  return 0;
}
