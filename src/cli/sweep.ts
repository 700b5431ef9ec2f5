import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { SeamlabError } from "../core/errors";
import { ICT_SETS_NO_OVERLAP } from "../experiment/proxies";
import { curveStability } from "../experiment/stability";
import type { Unit } from "../splitters/config";
import { clearCache, defaultCacheDir, openCache, rejectedCacheEntries } from "../experiment/cache";
import { closeWorkers } from "../experiment/execute";
import { checkedConfigs } from "../experiment/plan";
import {
  flattenRow,
  runOverlapSweep,
  sweepConfigs,
  curveRows,
  type OverlapSweepSpec,
  type SweepMetric,
  type SweepResult,
} from "../experiment/sweep";
import {
  checkEvaluationInputFlags,
  evaluationOptionsFrom,
  loadEvaluationInputs,
  retrievalFlags,
  retrievalHelp,
  sizeBounds,
  unitFromFlags,
} from "./flag-groups";
import {
  choiceFlag,
  commaList,
  intFlag,
  intListFlag,
  LIMITS,
  numberFlag,
  optionalIntFlag,
  refuseTogether,
  stringFlag,
} from "./flags";
import { thousands } from "../stats/format";
import { infinityAsText } from "./format";
import {
  DEFAULT_SWEEP_OVERLAPS,
  parseOverlapList,
  resolveOverlaps,
  type OverlapSetting,
} from "../experiment/overlap-share";
import { groupBreakdown, queryGroups, readGroupRules } from "../experiment/groups";
import { byTypeHelp, runSweepByType } from "./sweep-by-type";
import { withSampleAdvice } from "../experiment/sample-advice";
import { parseContextBudget } from "../retrieval/context-budget";
import { parseExpandList, parseParentsList } from "../retrieval/expand";
import { describeLevers, leverJson } from "./sweep-levers-print";
import { chooseQueryBudget, parseBudgetMinutes, type BudgetChoice } from "../experiment/budget";
import { pilotSweepCost, splitCount } from "../experiment/budget-pilot";
import { sampleEvaluationInputs } from "../retrieval/inputs";
import { parseSampleRequest } from "../corpus/sample";
import { resolveRowSample } from "../experiment/row-sample";
import { curveExposedVerdicts, sweepExposures } from "../experiment/exposure";
import { queryDropsText } from "../retrieval/query-source";
import {
  curvesJson,
  describeExposure,
  describeGroups,
  exposureJson,
  gridsJson,
  groupsJson,
  kneeJson,
  printText,
} from "./sweep-print";
import { exportHelp, sweepExportTarget, writeSweepExport } from "./sweep-export";

export const summary =
  "Overlap sweep (x first-stage depth with a reranker): recall " +
  "vs overlap, cost, and the knee (Kneedle + plateau rule).";

const help = `Usage: seamlab sweep [--corpus SPEC] [--queries headers|ict|FILE] --splitter NAME --size N \
--overlaps 0,50,100,200,400
                    [--ks 5,10,20 --final-k 3 --rerank mmr] [--workers N] [--quiet] [--json]
       seamlab sweep --clear-cache

  --splitter NAME[,NAME]      the splitter(s), one curve each (default langchain); --size N (default 1000)
  --sizes LIST                several chunk sizes (e.g. 500,1000,2000): one curve per size and a verdict over
                              size x overlap (cheapest by vectors stored), with the price of each extra point
  --context-budget N|Nt|off   judge every config on the top chunks, in rank order, that fit N characters (Nc) or
                              tokens (Nt) per query; a bare N is in the sizes' unit. Default with several --sizes
                              (one k, no reranker): the median size x k, so sizes get equal prompts, not equal k;
                              off gives plain hit rate@k. Plain hit rate@k is shown beside it
  --expand LIST               also index each size without overlap and paste each hit with its n neighbouring chunks
                              on each side (LlamaIndex's sentence window, chunks as the nodes), e.g. 0,1,2
  --parents section|N[,...]   ... or paste each hit's parent: its # / ## section, or its N-unit block (the splitter at
                              size N). Both are judged against the overlaps at the context budget (on by default
                              with them), paired on the same queries, cost = vectors stored
  --overlaps LIST             overlaps to sweep (default 0,50,100,200,400); shares of the size work too: 0,10%,20%
  --ks LIST                   first-stage depths (retrieval_k; default 5)
  --final-k N                 keep N chunks after reranking; recall is @N (default: each k, no cut)
  --rerank none|mmr|dense     reranker that cuts k to final-k (default none); --mmr-lambda X (default 0.5);
                              dense = cosine of LSA vectors fitted on each config's chunks
  --metric recall|hit-rate    the curve's y, named in its column header (default recall; with one gold span per
                              query the two coincide)
  --sensitivity S             Kneedle sensitivity (default 1); --online for its online mode
  --epsilon X                 plateau rule: also accept points within X of the best (default 0: CI rule only)
  --groups folder|FILE        also break the first curve down by the queries' documents: by folder, or by a JSON
                              file mapping globs over document ids to group names ({"docs/**": "docs"})
  --margin POINTS             the verdict: the cheapest overlap whose paired 95% CI shows it at most POINTS of hit
                              rate below the best (default 1), else "undecided" with the queries needed
  --price X --dims N --bytes N   cost model: price per million tokens (default 0.13), \
vector dims (1536), bytes per dim (4)
  --budget MIN                fit the sweep in MIN minutes: a pilot times the two end configs on 200 queries, and
                              the largest query sample that fits is run (said in one line); not with --query-sample
  --sample auto|auto:H|N|all  documents the pairs kept % and token figures are measured on (seams, chunks and
                              retrieval always cover every document): auto (default) measures corpora up to 20 M
                              characters whole, larger ones on a seeded sample stratified by folder and size, sized
                              for a 95% CI of ±1 point on pairs kept (auto:H for ±H); tokens are then estimated
  --workers N                 worker threads (default: all cores; 0 = this thread)
  --cache-dir DIR             where results are cached (default .seamlab-cache/ in the project root)
  --no-cache                  neither read nor write the cache; --clear-cache empties it first
  --quiet                     no progress bar (it is also off when stderr is not a terminal)
${retrievalHelp
  .split("\n")
  .filter((line) => !/^\s+--(k|per-doc|json) /.test(line))
  .join("\n")}
${byTypeHelp}
${exportHelp}
  --json                      print JSON: rows, curves (each with its paired decision) \
and knee {kneedle, plateau, agree}

Ctrl-C stops cleanly: finished configs stay cached, so re-running completes the sweep with identical results.`;

/** Above this many characters a sweep computes in the calling thread unless --workers says otherwise. */
export const singleThreadChars = 200_000_000;

/**
 * The worker threads of a sweep over `chars` characters: as asked, else the default (all cores) unless the corpus
 * is over `limit`. Each worker thread decodes its own copy of the corpus and builds its own caches and index, and
 * the corpus is copied once more to reach them: past a few hundred MB that memory costs more than the second core
 * gains, so a huge corpus runs in this thread, with a note saying so.
 */
export function sweepWorkers(
  asked: number | undefined,
  chars: number,
  limit = singleThreadChars,
): { workers: number | undefined; note?: string } {
  if (asked !== undefined || chars <= limit) return { workers: asked };
  return {
    workers: 0,
    note:
      `${(chars / 1e6).toFixed(0)} M characters: computing in this thread, since every worker thread would hold a ` +
      `copy of the corpus (--workers N to override)`,
  };
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...retrievalFlags,
      splitter: { type: "string" },
      size: { type: "string" },
      sizes: { type: "string" },
      overlaps: { type: "string" },
      ks: { type: "string" },
      "final-k": { type: "string" },
      rerank: { type: "string" },
      "mmr-lambda": { type: "string" },
      metric: { type: "string" },
      sensitivity: { type: "string" },
      online: { type: "boolean" },
      epsilon: { type: "string" },
      margin: { type: "string" },
      groups: { type: "string" },
      price: { type: "string" },
      dims: { type: "string" },
      bytes: { type: "string" },
      workers: { type: "string" },
      quiet: { type: "boolean" },
      "no-cache": { type: "boolean" },
      "clear-cache": { type: "boolean" },
      "cache-dir": { type: "string" },
      "by-type": { type: "boolean" },
      types: { type: "string" },
      "min-queries": { type: "string" },
      budget: { type: "string" },
      sample: { type: "string" },
      export: { type: "string" },
      force: { type: "boolean" },
      "context-budget": { type: "string" },
      expand: { type: "string" },
      parents: { type: "string" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(help + "\n");
    return 0;
  }
  const cacheDir = values["cache-dir"] === undefined ? defaultCacheDir() : resolve(stringFlag(values, "cache-dir"));
  if (values["cache-dir"] !== undefined && existsSync(cacheDir) && !statSync(cacheDir).isDirectory())
    throw new SeamlabError(
      `--cache-dir ${cacheDir} is a file; give a folder for the cache (it is created if missing).`,
    );
  if (values["clear-cache"]) {
    const removed = clearCache(cacheDir);
    process.stderr.write(`seamlab: cleared ${removed} cached result(s) from ${cacheDir}\n`);
    const sweepFlags = ["corpus", "queries", "splitter", "size", "overlaps", "ks"];
    if (!sweepFlags.some((flag) => (values as Record<string, unknown>)[flag] !== undefined)) return 0;
  }
  if (values["by-type"] && values.sample !== undefined)
    throw new SeamlabError("--sample is not available with --by-type yet: drop one of them.");
  if (values["by-type"] && [values["context-budget"], values.expand, values.parents].some((v) => v !== undefined))
    throw new SeamlabError("--context-budget, --expand and --parents are not available with --by-type yet: drop them.");
  const exportTo = sweepExportTarget(values);
  if (values["by-type"]) return runSweepByType(values);
  const sampleRequest = parseSampleRequest(values.sample, "--sample");
  const splitters = commaList(stringFlag(values, "splitter", "langchain"));
  const unit: Unit = unitFromFlags(values, splitters);
  const metricName = choiceFlag(values, "metric", ["recall", "hit-rate"], "recall");
  const metric: SweepMetric = metricName === "recall" ? "recallAtK" : "hitRate";
  const reranker = stringFlag(values, "rerank", "none");
  const ks = intListFlag(values, "ks", [5], { min: 1, max: LIMITS.k, unit: "chunks" });
  const finalKRaw = optionalIntFlag(values, "final-k", { min: 1, max: LIMITS.k, unit: "chunks" });
  if (finalKRaw !== undefined && finalKRaw > Math.min(...ks)) {
    throw new SeamlabError(
      `--final-k ${finalKRaw} is larger than the smallest --ks value ${Math.min(...ks)}; the reranker can only cut.`,
    );
  }
  const evaluation = evaluationOptionsFrom(values);
  // Settings go into the cache key only when they differ from the defaults, so default sweeps share cached rows.
  const customRetriever =
    evaluation.retriever !== "bm25" ||
    ["k1", "bm25-b", "stem", "stop-words"].some((flag) => (values as Record<string, unknown>)[flag] !== undefined);
  refuseTogether(values, "size", "sizes", "give one size with --size, or several with --sizes 500,1000,2000.");
  const sizes =
    values.sizes === undefined
      ? [intFlag(values, "size", 1000, sizeBounds(unit, 1))]
      : intListFlag(values, "sizes", undefined, sizeBounds(unit, 1));
  // Overlaps may be shares of each size ("10%"); each resolves below its size or is refused, naming both flags.
  const overlaps: OverlapSetting[] =
    values.overlaps === undefined ? [...DEFAULT_SWEEP_OVERLAPS] : parseOverlapList(stringFlag(values, "overlaps"));
  for (const size of sizes) {
    const tooLarge = resolveOverlaps(overlaps, size).find((overlap) => overlap >= size);
    if (tooLarge !== undefined)
      throw new SeamlabError(`--overlaps ${tooLarge} is not smaller than --size ${size}; every overlap must be.`);
  }
  const spec: OverlapSweepSpec = {
    splitter: splitters,
    size: sizes[0],
    sizes: sizes.length > 1 ? sizes : undefined,
    overlaps,
    unit,
    encoding: unit === "tokens" ? stringFlag(values, "encoding", "cl100k_base") : undefined,
    ks,
    finalK: finalKRaw,
    reranker,
    rerankerOptions:
      values["mmr-lambda"] === undefined
        ? undefined
        : { lambda: numberFlag(values, "mmr-lambda", 0.5, { min: 0, max: 1 }) },
    retriever: evaluation.retriever,
    retrieverSettings: customRetriever ? evaluation.retrieverSettings : undefined,
    contextBudget:
      values["context-budget"] === undefined ? undefined : parseContextBudget(values["context-budget"], unit),
    expand: values.expand === undefined ? undefined : parseExpandList(values.expand),
    parents: values.parents === undefined ? undefined : parseParentsList(values.parents, Math.max(...sizes)),
  };
  const workers = optionalIntFlag(values, "workers", { min: 0, max: LIMITS.parallel, unit: "threads" });
  const sensitivity = numberFlag(values, "sensitivity", 1, { min: 0, max: 100, exclusiveMin: true });
  const epsilon = numberFlag(values, "epsilon", 0, { min: 0, max: 1 });
  const cost = {
    pricePerMillionTokens: numberFlag(values, "price", 0.13, { min: 0, max: 1_000_000, unit: "per million tokens" }),
    dims: intFlag(values, "dims", 1536, { min: 1, max: LIMITS.dims, unit: "dimensions" }),
    bytesPerDim: intFlag(values, "bytes", 4, { min: 1, max: 16, unit: "bytes" }),
  };
  checkEvaluationInputFlags(values);
  const budgetMinutes = parseBudgetMinutes(values.budget);
  refuseTogether(values, "budget", "query-sample", "--budget chooses the query sample; give one or the other.");
  const margin = numberFlag(values, "margin", 1, { min: 0, max: 99, exclusiveMin: true, unit: "points" }) / 100;
  const groupsFlag = values.groups === undefined ? undefined : stringFlag(values, "groups");
  const groupRules =
    groupsFlag === undefined || groupsFlag === "folder" ? undefined : readGroupRules(resolve(groupsFlag));
  checkedConfigs(sweepConfigs(spec)); // fail on a bad option before loading the corpus
  let inputs = loadEvaluationInputs(budgetMinutes === undefined ? values : { ...values, "query-sample": "all" });
  let budget: BudgetChoice | undefined;
  if (budgetMinutes !== undefined) {
    // Pilot first (the budget pays for it), then the largest query sample whose estimate fits the rest.
    const configs = checkedConfigs(sweepConfigs(spec));
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
  // The documents as read are not needed once the queries are built (the sweep splits `docs`, whose heading lines
  // header queries removed): letting them go halves the text a sweep holds.
  inputs = { ...inputs, corpusDocs: [] };
  const threads = sweepWorkers(
    workers,
    inputs.docs.reduce((sum, doc) => sum + doc.text.length, 0),
  );
  if (threads.note) process.stderr.write(`seamlab: ${threads.note}\n`);
  // Seam damage and embedded tokens on a document sample of a large corpus; retrieval indexes every document.
  const rowSample = resolveRowSample(inputs.docs, checkedConfigs(sweepConfigs(spec)), sampleRequest, evaluation.seed);
  const documentSample = {
    documents: rowSample ? rowSample.indexes.length : inputs.docs.length,
    population: inputs.docs.length,
    description: rowSample ? rowSample.description : `all ${thousands(inputs.docs.length)} documents`,
  };
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
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
  // Every config ran on the same sampled queries; an undecided verdict on a sample says to raise it first.
  result = withSampleAdvice(result, inputs.querySample, "--query-sample");
  // Seam exposure per size: the queries a seam can cut at some overlap swept (split again; cached beside the rows).
  const cache = openCache(values["no-cache"] ? null : cacheDir);
  const exposures = result.interrupted ? [] : await sweepExposures(inputs.docs, inputs.queries, result, cache);
  const exposed = curveExposedVerdicts(result.curves, result.rows, exposures, { margin, seed: evaluation.seed });
  // Does each verdict hold still with two other bootstrap seeds and a grid one step coarser?
  const stabilities = result.interrupted
    ? []
    : result.curves.map((curve) => curveStability(curve, result.rows, { margin, seed: evaluation.seed }));
  const drops = queryDropsText(inputs.source);
  const rejected = rejectedCacheEntries();
  if (rejected > 0) {
    process.stderr.write(
      `seamlab: ${rejected} cached result(s) failed their checksum or key check and were recomputed (not used).\n`,
    );
  }
  // With several sizes, the breakdown is of the curve at the size the grid verdict picks.
  const pickedSize = result.grids[0]?.rows[result.grids[0].decision.choice].config.splitter.size;
  const groupCurve = result.curves.find((c) => c.size === pickedSize) ?? result.curves[0];
  const breakdown =
    groupsFlag === undefined || groupCurve === undefined
      ? undefined
      : groupBreakdown(groupCurve, curveRows(result.rows, groupCurve), queryGroups(inputs.queries, groupRules), {
          seed: evaluation.seed,
        });
  if (values.json) {
    const report = {
      corpus: inputs.corpus,
      queries: inputs.queries.length,
      querySample: { population: inputs.querySample.population, description: inputs.querySample.description },
      // What seam damage and embedded tokens were measured on (retrieval always indexes every document).
      documentSample,
      budget,
      queriesFrom: inputs.source,
      queryLabel: inputs.queryLabel,
      queryDrops: drops,
      // Per splitter and size: queries a seam can cut inside their gold span at some overlap swept, and their share.
      exposure: exposures.map(exposureJson),
      total: result.total,
      cached: result.cached,
      computed: result.computed,
      interrupted: result.interrupted,
      workers: result.workers,
      elapsedMs: result.elapsedMs,
      rows: result.rows.map(flattenRow),
      // Each curve carries its paired decision (indexes into its points) and, in words, its verdict.
      grids: gridsJson(result.grids),
      curves: curvesJson(result.curves, exposed).map((curve, i) => ({ ...curve, stability: stabilities[i] ?? null })),
      groups: breakdown && groupsJson(breakdown, groupCurve),
      // Per size: overlap against neighbours and parents at the budget (--expand / --parents).
      levers: result.levers.map(leverJson),
      knee: kneeJson(result.knee),
      ...(inputs.source.kind === "ict" ? { ictCaveat: ICT_SETS_NO_OVERLAP } : {}),
    };
    process.stdout.write(JSON.stringify(report, infinityAsText, 2) + "\n");
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
    // ICT agrees with labelled questions on how configs rank, not on where the overlap should sit (docs/queries.md)
    if (inputs.source.kind === "ict") process.stdout.write(`note: ${ICT_SETS_NO_OVERLAP}\n`);
  }
  if (exportTo) await writeSweepExport(exportTo, { argv, inputs, result, budgetQueries: budget?.queries });
  return result.interrupted ? 130 : 0;
}
