/** `seamlab sweep --by-type`: one curve and recommendation per gold-section type, then per-type vs uniform overlap. */
import { loadCorpus } from "../corpus/load";
import { closeWorkers } from "../experiment/execute";
import { typedHeaderQueries, queryTypes } from "../study/type-queries";
import { runTypeSweep, typeRecommendationRows, type TypeSweepInputs, type TypeSweepResult } from "../study/type-sweep";
import { formatRecords, printJson } from "./format";
import { pct } from "../study/format";
import { projectRoot } from "../core/project";
import {
  cacheDirFromFlags,
  evaluationOptionsFrom,
  headerOptionsFrom,
  loadEvaluationInputs,
  querySampleFromFlags,
} from "./flag-groups";
import { headingMarks } from "../retrieval/header-queries";
import { sampleQueries, sampledLabel } from "../retrieval/query-sample";
import { intFlag, intListFlag, LIMITS, optionalIntFlag, stringFlag } from "./flags";
import { typeOverridesFromFlags } from "./structure-flags";
import { thousands } from "../stats/format";

export const byTypeHelp = `  --by-type                   break the sweep down by the type of each query's gold section \
(structure
                              splitter): one curve and paired-rule recommendation per type, then the best per-type
                              overlaps against the best uniform overlap at equal index size (paired test);
                              header queries blank the heading words instead of removing the line, so
                              sections survive. --types FILE overrides types; --min-queries N (default 20)`;

export async function runSweepByType(values: Record<string, unknown>): Promise<number> {
  const size = intFlag(values, "size", 1000, { min: 1, max: LIMITS.size, unit: "chars" });
  const overlaps = intListFlag(values, "overlaps", [0, 100, 200, 400], { min: 0, max: LIMITS.size, unit: "chars" });
  const k = intListFlag(values, "ks", [5], { min: 1, max: LIMITS.k, unit: "chunks" })[0];
  const minQueries = intFlag(values, "min-queries", 20, { min: 1, max: 1_000_000, unit: "queries" });
  const overrides = typeOverridesFromFlags(values);
  const evaluation = evaluationOptionsFrom(values);
  const queriesSpec = stringFlag(values, "queries", "headers");
  const querySample = querySampleFromFlags(values);
  let corpus: string;
  let inputs: TypeSweepInputs;
  let label: string;
  if (queriesSpec === "headers") {
    corpus = stringFlag(values, "corpus", "fastify-docs");
    const headers = headerOptionsFrom(values);
    const set = typedHeaderQueries(loadCorpus(corpus, { projectRoot: projectRoot() }).docs, { ...headers, overrides });
    const sample = sampleQueries(set.queries, querySample);
    inputs = { docs: set.docs, queries: sample.queries, types: sample.indexes.map((i) => set.types[i]) };
    label = sampledLabel(
      `${thousands(set.queries.length)} header queries (${headingMarks(headers.headingLevels)})`,
      sample,
    );
  } else {
    const loaded = loadEvaluationInputs(values);
    corpus = loaded.corpus;
    inputs = {
      docs: loaded.docs,
      queries: loaded.queries,
      types: queryTypes(loaded.docs, loaded.queries, overrides),
    };
    label = loaded.queryLabel;
  }
  const cacheDir = cacheDirFromFlags(values);
  let result: TypeSweepResult;
  try {
    result = await runTypeSweep(
      inputs,
      { size, overlaps, k, retriever: evaluation.retriever, minQueries },
      {
        workers: optionalIntFlag(values, "workers", { min: 0, max: LIMITS.parallel, unit: "threads" }),
        quiet: Boolean(values.quiet),
        cacheDir: values["no-cache"] ? null : cacheDir,
      },
    );
  } finally {
    await closeWorkers();
  }
  const v = result.verdict;
  if (values.json) {
    printJson({
      corpus,
      queries: inputs.queries.length,
      queryLabel: label,
      size,
      overlaps,
      k,
      curves: result.curves.map((c) => ({
        type: c.type,
        queries: c.queries,
        points: c.points,
        best: c.best,
        recommended: c.recommended,
        verdict: c.decision?.verdict ?? "too few queries",
        queriesToDecide: c.decision?.queriesNeeded ?? null,
      })),
      perTypeVsUniform: v,
    });
    return 0;
  }
  const lines = [
    `corpus ${corpus}: ${label}; structure splitter, size ${size}, k=${k}; hit rate by the ` +
      `type of each query's gold section`,
    "",
    formatRecords(typeRecommendationRows(result.curves), (_, i) => i > 0),
    "",
    `per-type overlaps chosen on each half of the queries: ` +
      `${v.perTypeChoices.map((c) => JSON.stringify(c)).join(" / ")}`,
    `uniform comparators (index no larger): overlap ${v.uniformChoices.join(" / ")}; index ` +
      `${v.uniformIndexRatio.map((x) => x.toFixed(2)).join(" / ")}x vs per type ` +
      `${v.perTypeIndexRatio.map((x) => x.toFixed(2)).join(" / ")}x`,
    `out-of-fold hit rate: per type ${pct(v.comparison.hitRateA)}, uniform ` +
      `${pct(v.comparison.hitRateB)} (${v.comparison.wins} wins, ${v.comparison.losses} losses)`,
    `answer: ${v.answer}`,
  ];
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}
