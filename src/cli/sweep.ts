import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { SeamlabError } from "../core/errors";
import type { Unit } from "../splitters/config";
import { clearCache, defaultCacheDir, rejectedCacheEntries } from "../experiment/cache";
import { peakRssText } from "../core/memory";
import type { KneeReport } from "../experiment/knee";
import { closeWorkers } from "../experiment/execute";
import { checkedConfigs } from "../experiment/plan";
import {
  flattenRow,
  gridConfigName,
  runOverlapSweep,
  sweepConfigs,
  type GridVerdict,
  cheapestIndex,
  type SweepCurve,
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
import { verdictHeadline, verdictText } from "../experiment/verdict";
import { formatP, percentNumber, signedPoints, thousands } from "../stats/format";
import { infinityAsText } from "./format";
import { parseOverlapList, resolveOverlaps, type OverlapSetting } from "../experiment/overlap-share";
import {
  groupBreakdown,
  groupVerdictHeadline,
  queryGroups,
  readGroupRules,
  type GroupBreakdown,
} from "../experiment/groups";
import { byTypeHelp, runSweepByType } from "./sweep-by-type";
import { withSampleAdvice } from "../experiment/sample-advice";
import { budgetGridTable, budgetSuffix } from "./sweep-budget-print";
import { parseContextBudget } from "../retrieval/context-budget";
import { chooseQueryBudget, parseBudgetMinutes, type BudgetChoice } from "../experiment/budget";
import { pilotSweepCost, splitCount } from "../experiment/budget-pilot";
import { sampleEvaluationInputs } from "../retrieval/inputs";
import { parseSampleRequest } from "../corpus/sample";
import { resolveRowSample } from "../experiment/row-sample";
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
                              off gives plain hit@k. Plain hit@k is shown beside it
  --overlaps LIST             overlaps to sweep (default 0,50,100,200,400); shares of the size work too: 0,10%,20%
  --ks LIST                   first-stage depths (retrieval_k; default 5)
  --final-k N                 keep N chunks after reranking; recall is @N (default: each k, no cut)
  --rerank none|mmr|dense     reranker that cuts k to final-k (default none); --mmr-lambda X (default 0.5);
                              dense = cosine of LSA vectors fitted on each config's chunks
  --metric recall|hit-rate    the curve's y (default recall)
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
  --sample auto|auto:H|N|all  documents the pairs-kept% and token figures are measured on (seams, chunks and
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

const ratio = (x: number | null) => (x === null ? "  -  " : `${x.toFixed(2)}x`);

function describeKnee(knee: KneeReport): string[] {
  const lines = [
    `second opinion on the shape: Kneedle ${knee.kneedle ? `overlap ${knee.kneedle.x}` : "none"}, plateau rule ` +
      `overlap ${knee.plateau ? `${knee.plateau.x} (${knee.plateau.rule})` : "none"}, ` +
      `${knee.agree ? "agree" : "disagree"}`,
  ];
  for (const note of knee.notes) lines.push(`  note: ${note}`);
  return lines;
}

function describeGroups(groups: GroupBreakdown[], curve: SweepCurve): string[] {
  const x = (i: number) => curve.points[i].x;
  const pick = x(curve.decision.choice);
  const base = x(curve.decision.baseline);
  const lines = [
    "",
    `by group (${curve.splitter} size ${curve.size}): overlap ${pick} against ${base} on each group's queries, and ` +
      `each group's own verdict`,
    `group                     queries  hit% @${base}  hit% @${pick}  ${pick}-${base} (pts) [paired 95% CI]  ` +
      `McNemar p  own verdict`,
  ];
  for (const g of groups) {
    const d = g.pickVersusBaseline;
    lines.push(
      [
        g.group.slice(0, 24).padEnd(24),
        String(g.queries).padStart(7),
        percentNumber(g.decision.configs[curve.decision.baseline].rate).padStart(8),
        percentNumber(g.decision.configs[curve.decision.choice].rate).padStart(9),
        `${signedPoints(d.diff)} [${signedPoints(d.low)}, ${signedPoints(d.high)}]`.padEnd(27),
        formatP(d.mcnemarP).padStart(9),
        groupVerdictHeadline(g, (i) => `overlap ${x(i)}`) + (g.differs ? "  <- wants another overlap" : ""),
      ].join("  "),
    );
  }
  const differ = groups.filter((g) => g.differs).map((g) => g.group);
  lines.push(
    differ.length === 0
      ? "no group's own decided verdict differs from the whole corpus's"
      : `groups whose own verdict differs from overlap ${pick}: ${differ.join(", ")}`,
  );
  return lines;
}

function describeGrid(grid: GridVerdict): string[] {
  const name = (i: number) => gridConfigName(grid.rows[i]);
  const lines = [
    "",
    `${grid.splitter}, size x overlap, k=${grid.k}${grid.reranker !== "none" ? ` -> ${grid.reranker}` : ""} ` +
      `@${grid.finalK} (cheapest = fewest vectors stored)`,
    "size  overlap  share  chunks  hit%   best-it (pts) [paired 95% CI]  status",
  ];
  grid.rows.forEach((row, i) => {
    const c = grid.decision.configs[i];
    const s = row.config.splitter;
    lines.push(
      [
        String(s.size).padStart(4),
        String(s.overlap).padStart(7),
        `${Math.round((100 * s.overlap) / s.size)}%`.padStart(5),
        String(row.seams.chunks).padStart(6),
        percentNumber(c.rate).padStart(5),
        (
          `${percentNumber(c.fromBest.diff).padStart(5)} ` +
          `[${signedPoints(c.fromBest.low)}, ${signedPoints(c.fromBest.high)}]`
        ).padEnd(30),
        i === grid.decision.best ? "best" : c.status,
      ].join("  "),
    );
  });
  if (grid.contextBudget) lines.splice(0, lines.length, ...budgetGridTable(grid)); // its own table, both costs
  lines.push(`verdict over size x overlap: ${verdictText(grid.decision, name).replace(/\*\*/g, "")}`);
  if (!grid.contextBudget)
    lines.push(
      `  note: hit rate@${grid.finalK} favours large chunks, since ${grid.finalK} of them carry more text into the ` +
        `prompt; weigh the context size too.`,
    );
  if (grid.prices.length === 0) {
    lines.push(
      `price per point: no config has a higher hit rate than the cheapest, ${name(cheapestIndex(grid.decision))}`,
    );
  } else {
    lines.push(
      `price per extra point of hit rate over the cheapest, ${name(cheapestIndex(grid.decision))} (this corpus, the ` +
        `cost model's prices):`,
    );
    for (const p of grid.prices) {
      lines.push(
        `  ${name(p.index)}: +${p.points.toFixed(1)} points for ${(p.extraVectorBytes / 1e6).toFixed(1)} ` +
          `MB of vectors, ${thousands(p.extraTokens)} tokens, ` +
          `$${p.extraDollars.toFixed(4)}: ${(p.bytesPerPoint / 1e6).toFixed(2)} MB, ` +
          `${thousands(p.tokensPerPoint)} tokens, $${p.dollarsPerPoint.toFixed(4)} per point`,
      );
    }
  }
  return lines;
}

function printText(result: SweepResult, corpus: string, queryLabel: string): void {
  const lines = [
    `corpus ${corpus}: ${queryLabel}; ${result.total} configs (${result.cached} cached, ${result.computed} ` +
      `computed) in ${(result.elapsedMs / 1000).toFixed(1)} s on ${result.workers} worker(s), ${peakRssText()}`,
  ];
  for (const curve of result.curves) {
    lines.push(
      "",
      `${curve.splitter} size ${curve.size} ${curve.unit}, ` +
        (curve.contextBudget
          ? budgetSuffix(curve).slice(2)
          : `k=${curve.k}${curve.reranker !== "none" ? ` -> ${curve.reranker}` : ""} @${curve.finalK}`),
    );
    // Name the retriever (and so the embedder, for dense/hybrid) the way the rows measured it.
    const measuredBy = result.rows.find(
      (r) => r.config.splitter.splitter === curve.splitter && r.config.retrieval.k === curve.k,
    );
    if (measuredBy) lines.push(`retriever: ${measuredBy.retrieval.retriever}`);
    lines.push(
      "overlap  chunks  zero-seams%  pairs-kept%  recall%  95% CI          distinct  tokens  storage  best-it (pts) " +
        "[paired 95% CI]  McNemar p  status",
    );
    curve.points.forEach((point, index) => {
      const row = curveRows(result.rows, curve)[index];
      if (!row) return;
      const f = flattenRow(row);
      const paired = curve.decision.configs[index];
      const ci = `[${percentNumber(point.low as number)}, ${percentNumber(point.high as number)}]`;
      lines.push(
        [
          String(point.overlap).padStart(7),
          String(f.chunks).padStart(6),
          Number(f.zeroOverlapPct).toFixed(1).padStart(11),
          Number(f.pairsKeptPct).toFixed(1).padStart(11),
          percentNumber(point.y).padStart(7),
          ci.padEnd(14),
          Number(f.meanDistinct).toFixed(2).padStart(8),
          ratio(point.tokensRatio).padStart(6),
          ratio(point.storageRatio).padStart(7),
          (
            `${percentNumber(paired.fromBest.diff).padStart(5)} [${signedPoints(paired.fromBest.low)}, ` +
            `${signedPoints(paired.fromBest.high)}]`
          ).padEnd(30),
          formatP(paired.fromBest.mcnemarP).padStart(9),
          index === curve.decision.best ? "best" : paired.status,
        ].join("  "),
      );
    });
    const name = (i: number) => `overlap ${curve.points[i].x}`;
    lines.push(`verdict (hit rate, paired): ${verdictText(curve.decision, name).replace(/\*\*/g, "")}`);
    lines.push(...describeKnee(curve.knee));
  }
  for (const grid of result.grids) lines.push(...describeGrid(grid));
  if (result.interrupted)
    lines.push(
      "",
      "interrupted: the table shows the finished configs only; re-run to complete (finished ones are cached).",
    );
  process.stdout.write(lines.join("\n") + "\n");
}

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
      "context-budget": { type: "string" },
      export: { type: "string" },
      force: { type: "boolean" },
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
    values.overlaps === undefined ? [0, 50, 100, 200, 400] : parseOverlapList(stringFlag(values, "overlaps"));
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
      total: result.total,
      cached: result.cached,
      computed: result.computed,
      interrupted: result.interrupted,
      workers: result.workers,
      elapsedMs: result.elapsedMs,
      rows: result.rows.map(flattenRow),
      // Each curve carries its paired decision (indexes into its points) and, in words, its verdict.
      grids: result.grids.map((grid) => {
        const name = (i: number) => gridConfigName(grid.rows[i]);
        return {
          splitter: grid.splitter,
          k: grid.k,
          finalK: grid.finalK,
          reranker: grid.reranker,
          configs: grid.rows.map((row) => ({ size: row.config.splitter.size, overlap: row.config.splitter.overlap })),
          contextBudget: grid.contextBudget,
          costs: grid.costs,
          plainHitRates: grid.plainHitRates,
          decision: grid.decision,
          prices: grid.prices,
          verdict: verdictText(grid.decision, name).replace(/\*\*/g, ""),
          verdictShort: verdictHeadline(grid.decision, name),
        };
      }),
      curves: result.curves.map((curve) => {
        const name = (i: number) => `overlap ${curve.points[i].x}`;
        return {
          ...curve,
          verdict: verdictText(curve.decision, name).replace(/\*\*/g, ""),
          verdictShort: verdictHeadline(curve.decision, name),
        };
      }),
      groups: breakdown?.map((g) => ({
        group: g.group,
        queries: g.queries,
        differs: g.differs,
        pickVersusBaseline: g.pickVersusBaseline,
        verdict: groupVerdictHeadline(g, (i) => `overlap ${groupCurve.points[i].x}`),
        tooFewQueries: g.tooFewQueries,
        decision: g.decision,
      })),
      // The first curve's knee; every curve (splitter x depth) carries its own in `curves`.
      knee: {
        kneedle: result.knee.kneedle,
        plateau: result.knee.plateau,
        agree: result.knee.agree,
        notes: result.knee.notes,
      },
    };
    process.stdout.write(JSON.stringify(report, infinityAsText, 2) + "\n");
  } else {
    printText(result, inputs.corpus, inputs.queryLabel);
    if (rowSample)
      process.stdout.write(
        `pairs-kept% and tokens measured on ${rowSample.description}; tokens are estimates (--json gives ` +
          `their 95% CIs); seams, chunks and retrieval cover every document\n`,
      );
    if (breakdown) process.stdout.write(describeGroups(breakdown, groupCurve).join("\n") + "\n");
  }
  if (exportTo) await writeSweepExport(exportTo, { argv, inputs, result, budgetQueries: budget?.queries });
  return result.interrupted ? 130 : 0;
}
