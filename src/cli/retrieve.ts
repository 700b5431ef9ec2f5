import { summarizeOutcomes, type EvaluationOptions } from "../retrieval/evaluate";
import { evaluateSplitterConfig, type ConfigEvaluation } from "../retrieval/evaluate-config";
import {
  evaluationOptionsFrom,
  loadEvaluationInputs,
  retrievalFlags,
  retrievalHelp,
  splitterConfigFromFlags,
} from "./flag-groups";
import type { EvaluationInputs } from "../retrieval/inputs";
import { groupBy } from "../experiment/grid";
import { pct, pctInterval } from "../study/format";
import { commandFlags, flagOptions } from "./flags";
import { printJson } from "./format";

/** The JSON `retrieve` prints: the summary flattened with config, corpus and query provenance. */
function retrievalReport(
  inputs: EvaluationInputs,
  evaluation: ConfigEvaluation,
  perDoc: boolean,
  options: EvaluationOptions,
  timings = false,
) {
  const { summary: s } = evaluation;
  const report: Record<string, unknown> = {
    corpus: inputs.corpus,
    queriesFrom: inputs.source,
    queryLabel: inputs.queryLabel,
    querySample: { population: inputs.querySample.population, description: inputs.querySample.description },
    config: evaluation.config,
    indexRatio: evaluation.indexRatio,
    ...s,
    spanMetrics:
      "spanRecall/spanPrecision/iou count overlapping retrieved text once (merged); chroma.* counts it twice, as " +
      "Chroma's evaluation does",
  };
  // off by default: the rest of the report is byte-identical from run to run
  if (timings) report.timings = evaluation.timings;
  if (perDoc) {
    const { queries } = inputs;
    const { outcomes } = evaluation;
    const groups = groupBy([...outcomes.keys()], (i) => queries[i].doc ?? queries[i].gold[0]?.doc ?? "");
    const outcomesOf = (doc: string) => groups.get(doc)!.map((i) => outcomes[i]);
    const counts = { retriever: s.retriever, k: s.k, chunks: s.chunks };
    report.perDoc = Object.fromEntries(
      [...groups.keys()].sort().map((doc) => [doc, summarizeOutcomes(outcomesOf(doc), counts, options)]),
    );
  }
  return report;
}

function printText(inputs: EvaluationInputs, evaluation: ConfigEvaluation, timings: boolean): void {
  const s = evaluation.summary;
  const c = evaluation.config;
  const lines = [
    `corpus ${inputs.corpus}: ${inputs.docs.length} docs, ${inputs.queryLabel}`,
    `config ${c.splitter} ${c.size}/${c.overlap} ${c.unit ?? "chars"}: ${s.chunks} chunks, index ` +
      `${evaluation.indexRatio.toFixed(2)}x the corpus`,
    `retriever ${s.retriever}, k=${s.k}`,
    `hit rate@${s.k}            ${pct(s.hitRate)}  95% CI ${pctInterval(s.hitRateCI)}  (${s.hits}/${s.queries})`,
    `recall@${s.k}              ${pct(s.recallAtK)}  95% CI ${pctInterval(s.recallAtKCI)}  (mean share of a query's ` +
      `gold spans fully inside a top-${s.k} chunk)`,
    `distinct passages      ${s.meanDistinct.toFixed(2)} of ${s.k}  95% CI [${s.meanDistinctCI.low.toFixed(2)}, ` +
      `${s.meanDistinctCI.high.toFixed(2)}]`,
    `overlapping top-${s.k}     ${pct(s.queriesWithOverlappingTopK)}  95% CI ` +
      `${pctInterval(s.queriesWithOverlappingTopKCI)} of queries`,
    `near-duplicates        ${pct(s.nearDuplicateRatio)} of retrieved chunks (Jaccard >= ${s.nearDuplicateThreshold})`,
    `span recall/precision/IoU, overlap counted once:  ${pct(s.spanRecall)} / ${pct(s.spanPrecision)} / ${pct(s.iou)}`,
    `span recall/precision/IoU, Chroma's way (twice): ${pct(s.chroma.spanRecall)} / ${pct(s.chroma.spanPrecision)} ` +
      `/ ${pct(s.chroma.iou)}`,
  ];
  if (inputs.source.kind === "headers") lines.push(`skipped headings: ${JSON.stringify(inputs.source.skipped)}`);
  else if (inputs.source.kind === "ict")
    lines.push(
      `ICT: ${inputs.source.candidates} of ${inputs.source.sentences} prose sentences could serve; skipped ` +
        `${JSON.stringify(inputs.source.skipped)}`,
    );
  else {
    const r = inputs.source.report;
    lines.push(
      `labelled set: ${r.rows} rows, ${r.queries} queries, not located ${JSON.stringify(r.notLocated)}, offsets ` +
        `corrected ${r.offsetsCorrected}, ambiguous ${r.ambiguous}, malformed skipped ${r.skippedMalformed}`,
    );
  }
  if (timings)
    lines.push(
      `time: split ${evaluation.timings.split.toFixed(2)} s, index ${evaluation.timings.index.toFixed(2)} s, ` +
        `queries ${evaluation.timings.query.toFixed(2)} s`,
    );
  process.stdout.write(lines.join("\n") + "\n");
}

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    { ...retrievalFlags, ...flagOptions(["splitter", "size", "overlap"]) },
    `Usage: seamlab retrieve [--corpus SPEC] [--queries headers|ict|FILE] --splitter NAME --size N --overlap N ` +
      `[--k 5] [--json]\n\n` +
      `  --splitter NAME --size N --overlap N   the config (defaults langchain 1000/200)\n${retrievalHelp}`,
  );
  if (!values) return 0;
  const config = splitterConfigFromFlags(values);
  const options = evaluationOptionsFrom(values);
  const inputs = loadEvaluationInputs(values);
  const evaluation = await evaluateSplitterConfig(inputs.docs, inputs.queries, config, options);
  if (values.json)
    printJson(retrievalReport(inputs, evaluation, Boolean(values["per-doc"]), options, Boolean(values.timings)), null);
  else printText(inputs, evaluation, Boolean(values.timings));
  return 0;
}
