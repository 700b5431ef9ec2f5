import { SeamlabError } from "../core/errors";
import type { SplitterConfig } from "../splitters/config";
import { evaluateSplitterConfig } from "../retrieval/evaluate-config";
import { pairedComparison } from "../stats/paired";
import { wilsonInterval } from "../stats/proportion";
import {
  checkEvaluationInputFlags,
  evaluationOptionsFrom,
  loadEvaluationInputs,
  retrievalFlags,
  retrievalHelp,
} from "./flag-groups";
import { parseConfigSpec } from "./config-spec";
import { pct } from "../study/format";
import { pText } from "../stats/format";
import { infinityAsText } from "./format";
import { createProgress } from "../experiment/progress";
import { commandFlags } from "./flags";

const describe = (c: SplitterConfig) => `${c.splitter}:${c.size}:${c.overlap}:${c.unit ?? "chars"}`;

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    { ...retrievalFlags, a: { type: "string" }, b: { type: "string" } },
    `Usage: seamlab compare [--corpus SPEC] [--queries headers|ict|FILE] --a ` +
      `splitter:size:overlap[:unit] --b splitter:size:overlap[:unit] [--json]\n\n` +
      `  wins = queries only A hits, losses = queries only B hits, diff = hit rate A - hit rate B,\n` +
      `  mcnemarP = exact two-sided McNemar p on wins vs losses, ` +
      `diffCI = paired bootstrap 95% CI of diff,\n  never narrower than Tango's score interval\n${retrievalHelp}`,
  );
  if (!values) return 0;
  if (values.a === undefined || values.b === undefined)
    throw new SeamlabError("--a and --b are required, e.g. --a langchain:1000:200 --b langchain:1000:0.");
  const configA = parseConfigSpec(values.a, "a", values);
  const configB = parseConfigSpec(values.b, "b", values);
  const options = evaluationOptionsFrom(values);
  checkEvaluationInputFlags(values);
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
    a: {
      config: configA,
      hits: a.summary.hits,
      hitRate: a.summary.hitRate,
      hitRateCI: a.summary.hitRateCI,
      meanDistinct: a.summary.meanDistinct,
      indexRatio: a.indexRatio,
    },
    b: {
      config: configB,
      hits: b.summary.hits,
      hitRate: b.summary.hitRate,
      hitRateCI: b.summary.hitRateCI,
      meanDistinct: b.summary.meanDistinct,
      indexRatio: b.indexRatio,
    },
    ...comparison,
  };
  if (values.json) {
    process.stdout.write(JSON.stringify(report, infinityAsText, 2) + "\n");
    return 0;
  }
  const ciA = wilsonInterval(a.summary.hits, a.summary.queries);
  const ciB = wilsonInterval(b.summary.hits, b.summary.queries);
  process.stdout.write(
    [
      `corpus ${inputs.corpus}: ${inputs.queryLabel}, k=${options.k}, ${a.summary.retriever}`,
      `A ${describe(configA)}: hit rate ${pct(comparison.hitRateA)} ` +
        `[${pct(ciA.low)}, ${pct(ciA.high)}], index ${a.indexRatio.toFixed(2)}x`,
      `B ${describe(configB)}: hit rate ${pct(comparison.hitRateB)} ` +
        `[${pct(ciB.low)}, ${pct(ciB.high)}], index ${b.indexRatio.toFixed(2)}x`,
      `only A hits (wins) ${comparison.wins}, only B hits (losses) ${comparison.losses}, ties ${comparison.ties}`,
      `A - B = ${pct(comparison.diff)}, 95% CI [${pct(comparison.diffCI.low)}, ` +
        `${pct(comparison.diffCI.high)}], exact McNemar ${pText(comparison.mcnemarP)}`,
    ].join("\n") + "\n",
  );
  return 0;
}
