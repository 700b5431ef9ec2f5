import { totalChars } from "../core/types";
import { SeamlabError } from "../core/errors";
import { ICT_SETS_NO_OVERLAP } from "../experiment/proxies";
import { curveStability } from "../experiment/stability";
import { clearCache, openCache, rejectedCacheEntries } from "../experiment/cache";
import { closeWorkers } from "../experiment/execute";
import { checkedConfigs } from "../experiment/plan";
import { flattenRow, runOverlapSweep, sweepConfigs, curveRows, type SweepResult } from "../experiment/sweep";
import { cacheDirFromFlags, loadEvaluationInputs } from "./flag-groups";
import { thousands } from "../stats/format";
import { infinityAsText, printJson } from "./format";
import { groupBreakdown, queryGroups } from "../experiment/groups";
import { runSweepByType } from "./sweep-by-type";
import { withSampleAdvice } from "../experiment/sample-advice";
import { describeLevers, leverJson } from "./sweep-budget-print";
import { chooseQueryBudget, type BudgetChoice } from "../experiment/budget";
import { pilotSweepCost, splitCount } from "../experiment/budget-pilot";
import { sampleEvaluationInputs } from "../retrieval/inputs";
import { resolveRowSample } from "../experiment/row-sample";
import { curveExposedVerdicts, sweepExposures } from "../experiment/exposure";
import { queryDropsText } from "../retrieval/query-source";
import { curvesJson, describeExposure, describeGroups, gridsJson, groupsJson, printText } from "./sweep-print";
import { sweepExportTarget, writeSweepExport } from "./sweep-export";
import { parseSweepFlags, sweepHelp, sweepSettingsFromFlags, sweepWorkers } from "./sweep-flags";

export async function run(argv: string[]): Promise<number> {
  const values = parseSweepFlags(argv);
  if (values.help) {
    process.stdout.write(sweepHelp + "\n");
    return 0;
  }
  const cacheDir = cacheDirFromFlags(values);
  if (values["clear-cache"]) {
    const removed = clearCache(cacheDir);
    process.stderr.write(`seamlab: cleared ${removed} cached result(s) from ${cacheDir}\n`);
    const sweepFlags = ["corpus", "queries", "splitter", "size", "overlaps", "ks"];
    if (!sweepFlags.some((flag) => values[flag as keyof typeof values] !== undefined)) return 0;
  }
  if (values["by-type"] && values.sample !== undefined)
    throw new SeamlabError("--sample is not available with --by-type yet: drop one of them.");
  if (values["by-type"] && [values["context-budget"], values.expand, values.parents].some((v) => v !== undefined))
    throw new SeamlabError("--context-budget, --expand and --parents are not available with --by-type yet: drop them.");
  const exportTo = sweepExportTarget(values);
  if (values["by-type"]) return runSweepByType(values);
  const settings = sweepSettingsFromFlags(values);
  const { spec, sampleRequest, metric, evaluation, sensitivity, epsilon, cost, budgetMinutes, margin } = settings;
  let inputs = loadEvaluationInputs(budgetMinutes === undefined ? values : { ...values, "query-sample": "all" });
  let budget: BudgetChoice | undefined;
  const configs = checkedConfigs(sweepConfigs(spec));
  if (budgetMinutes !== undefined) {
    // Pilot first (the budget pays for it), then the largest query sample whose estimate fits the rest.
    const pilot = await pilotSweepCost(inputs, configs, { nearDuplicateThreshold: evaluation.nearDuplicateThreshold });
    budget = chooseQueryBudget({
      budgetMs: budgetMinutes * 60_000,
      spentMs: pilot.spentMs,
      splits: splitCount(configs),
      configs: configs.length,
      parallel: 1,
      model: pilot.model,
      population: inputs.queries.length,
    });
    process.stderr.write(`seamlab: ${budget.line}\n`);
    inputs = sampleEvaluationInputs(inputs, { kind: "count", count: budget.queries }, `budget ${budgetMinutes} min`);
  }
  // The documents as read are not needed once the queries are built: letting them go halves the text held.
  inputs = { ...inputs, corpusDocs: [] };
  const chars = totalChars(inputs.docs);
  const threads = sweepWorkers(settings.workers, chars);
  if (threads.note) process.stderr.write(`seamlab: ${threads.note}\n`);
  // Seam damage and embedded tokens on a document sample of a large corpus; retrieval indexes every document.
  const rowSample = resolveRowSample(inputs.docs, configs, sampleRequest, evaluation.seed);
  const documentSample = {
    documents: rowSample ? rowSample.indexes.length : inputs.docs.length,
    population: inputs.docs.length,
    description: rowSample ? rowSample.description : `all ${thousands(inputs.docs.length)} documents`,
  };
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    if (++interrupts > 1) process.exit(130);
    process.stderr.write("\nseamlab: stopping (finished configs are cached; Ctrl-C again to quit at once)\n");
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  let result: SweepResult;
  try {
    result = await runOverlapSweep({ docs: inputs.docs, queries: inputs.queries, sample: rowSample }, spec, {
      workers: threads.workers,
      quiet: Boolean(values.quiet),
      cacheDir: values["no-cache"] ? null : cacheDir,
      signal: controller.signal,
      nearDuplicateThreshold: evaluation.nearDuplicateThreshold,
      seed: evaluation.seed,
      metric,
      sensitivity,
      online: Boolean(values.online),
      epsilon,
      margin,
      cost,
    });
  } finally {
    process.off("SIGINT", onSigint);
    await closeWorkers();
  }
  result = withSampleAdvice(result, inputs.querySample, "--query-sample");
  const cache = openCache(values["no-cache"] ? null : cacheDir);
  const exposures = result.interrupted ? [] : await sweepExposures(inputs.docs, inputs.queries, result, cache);
  const exposed = curveExposedVerdicts(result.curves, result.rows, exposures, { margin, seed: evaluation.seed });
  // Does each verdict hold still with two other bootstrap seeds and a grid one step coarser?
  const stabilities = result.interrupted
    ? []
    : result.curves.map((curve) => curveStability(curve, result.rows, { margin, seed: evaluation.seed }));
  const drops = queryDropsText(inputs.source);
  const rejected = rejectedCacheEntries();
  if (rejected > 0)
    process.stderr.write(
      `seamlab: ${rejected} cached result(s) failed their checksum or key check and were recomputed (not used).\n`,
    );
  // With several sizes, the breakdown is of the curve at the size the grid verdict picks.
  const pickedSize = result.grids[0]?.rows[result.grids[0].decision.choice].config.splitter.size;
  const groupCurve = result.curves.find((c) => c.size === pickedSize) ?? result.curves[0];
  const groups = settings.groupsFlag === undefined ? undefined : queryGroups(inputs.queries, settings.groupRules);
  const breakdown =
    groups &&
    groupCurve &&
    groupBreakdown(groupCurve, curveRows(result.rows, groupCurve), groups, { seed: evaluation.seed });
  if (values.json) {
    const { points: _points, ...knee } = result.knee;
    const report = {
      corpus: inputs.corpus,
      queries: inputs.queries.length,
      querySample: { population: inputs.querySample.population, description: inputs.querySample.description },
      documentSample,
      budget,
      queriesFrom: inputs.source,
      queryLabel: inputs.queryLabel,
      queryDrops: drops,
      exposure: exposures.map(({ flags: _flags, ...exposure }) => exposure),
      total: result.total,
      cached: result.cached,
      computed: result.computed,
      interrupted: result.interrupted,
      workers: result.workers,
      elapsedMs: result.elapsedMs,
      rows: result.rows.map(flattenRow),
      grids: gridsJson(result.grids),
      curves: curvesJson(result.curves, exposed).map((curve, i) => ({ ...curve, stability: stabilities[i] ?? null })),
      groups: breakdown && groupsJson(breakdown, groupCurve),
      levers: result.levers.map(leverJson),
      knee,
      ...(inputs.source.kind === "ict" ? { ictCaveat: ICT_SETS_NO_OVERLAP } : {}),
    };
    printJson(report, infinityAsText);
  } else {
    printText(result, inputs.corpus, inputs.queryLabel, drops, (i) => {
      const e = exposed[i];
      const stability = stabilities[i] ? [`stability (bootstrap seed, a coarser grid): ${stabilities[i].text}`] : [];
      return [...stability, ...(e ? describeExposure(result.curves[i], e.exposure, e.verdict) : [])];
    });
    if (rowSample)
      process.stdout.write(
        `pairs kept % and tokens measured on ${rowSample.description}; tokens are estimates (--json gives ` +
          `their 95% CIs); seams, chunks and retrieval cover every document\n`,
      );
    if (breakdown) process.stdout.write(describeGroups(breakdown, groupCurve).join("\n") + "\n");
    for (const lever of result.levers) process.stdout.write(describeLevers(lever).join("\n") + "\n");
    if (inputs.source.kind === "ict") process.stdout.write(`note: ${ICT_SETS_NO_OVERLAP}\n`);
  }
  if (exportTo) await writeSweepExport(exportTo, { argv, inputs, result, budgetQueries: budget?.queries });
  return result.interrupted ? 130 : 0;
}
