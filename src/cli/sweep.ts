import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { SeamlabError } from "../core/errors";
import type { Unit } from "../splitters/config";
import { clearCache, defaultCacheDir, rejectedCacheEntries } from "../experiment/cache";
import type { KneeReport } from "../experiment/knee";
import { closeWorkers } from "../experiment/execute";
import { checkedConfigs } from "../experiment/plan";
import {
  flattenRow,
  runOverlapSweep,
  sweepGrid,
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
import { choiceFlag, intFlag, intListFlag, LIMITS, numberFlag, optionalIntFlag, stringFlag } from "./flags";

export const summary =
  "Overlap sweep (x first-stage depth with a reranker): recall vs overlap, cost, and the knee (Kneedle + plateau rule).";

const help = `Usage: seamlab sweep [--corpus SPEC] [--queries headers|ict|FILE] --splitter NAME --size N --overlaps 0,50,100,200,400
                    [--ks 5,10,20 --final-k 3 --rerank mmr] [--workers N] [--quiet] [--json]
       seamlab sweep --clear-cache

  --splitter NAME[,NAME]      the splitter(s), one curve each (default langchain); --size N (default 1000)
  --overlaps LIST             overlaps to sweep (default 0,50,100,200,400)
  --ks LIST                   first-stage depths (retrieval_k; default 5)
  --final-k N                 keep N chunks after reranking; recall is @N (default: each k, no cut)
  --rerank none|mmr|dense     reranker that cuts k to final-k (default none); --mmr-lambda X (default 0.5);
                              dense = cosine of LSA vectors fitted on each config's chunks
  --metric recall|hit-rate    the curve's y (default recall)
  --sensitivity S             Kneedle sensitivity (default 1); --online for its online mode
  --epsilon X                 plateau rule: also accept points within X of the best (default 0: CI rule only)
  --price X --dims N --bytes N   cost model: price per million tokens (default 0.13), vector dims (1536), bytes per dim (4)
  --workers N                 worker threads (default: all cores; 0 = this thread)
  --cache-dir DIR             where results are cached (default .seamlab-cache/ in the project root)
  --no-cache                  neither read nor write the cache; --clear-cache empties it first
  --quiet                     no progress bar (it is also off when stderr is not a terminal)
${retrievalHelp
  .split("\n")
  .filter((line) => !/^\s+--(k|per-doc|json) /.test(line))
  .join("\n")}
  --json                      print JSON: rows, curves and knee {kneedle, plateau, agree}

Ctrl-C stops cleanly: finished configs stay cached, so re-running completes the sweep with identical results.`;

const pct = (x: number) => `${(100 * x).toFixed(1)}`;
const ratio = (x: number | null) => (x === null ? "  -  " : `${x.toFixed(2)}x`);

function describeKnee(knee: KneeReport): string[] {
  const lines = [
    `knee: Kneedle ${knee.kneedle ? `overlap ${knee.kneedle.x}` : "none"}, plateau rule overlap ${knee.plateau ? `${knee.plateau.x} (${knee.plateau.rule})` : "none"}, ${knee.agree ? "agree" : "disagree"}`,
  ];
  for (const note of knee.notes) lines.push(`  note: ${note}`);
  return lines;
}

function printText(result: SweepResult, corpus: string, queryLabel: string): void {
  const lines = [
    `corpus ${corpus}: ${queryLabel}; ${result.total} configs (${result.cached} cached, ${result.computed} computed) in ${(result.elapsedMs / 1000).toFixed(1)} s on ${result.workers} worker(s)`,
  ];
  for (const curve of result.curves) {
    lines.push(
      "",
      `${curve.splitter} size ${curve.size} ${curve.unit}, k=${curve.k}${curve.reranker !== "none" ? ` -> ${curve.reranker}` : ""} @${curve.finalK}`,
    );
    // Name the retriever (and so the embedder, for dense/hybrid) the way the rows measured it.
    const measuredBy = result.rows.find(
      (r) => r.config.splitter.splitter === curve.splitter && r.config.retrieval.k === curve.k,
    );
    if (measuredBy) lines.push(`retriever: ${measuredBy.retrieval.retriever}`);
    lines.push("overlap  chunks  zero-seams%  pairs-kept%  recall%  95% CI          distinct  tokens  storage");
    for (const point of curve.points) {
      const row = result.rows.find(
        (r) =>
          r.config.splitter.splitter === curve.splitter &&
          r.config.splitter.size === curve.size &&
          (r.config.splitter.unit ?? "chars") === curve.unit &&
          r.config.splitter.overlap === point.overlap &&
          r.config.retrieval.k === curve.k &&
          (r.config.retrieval.reranker ?? "none") === curve.reranker,
      );
      if (!row) continue;
      const f = flattenRow(row);
      const ci = `[${pct(point.low as number)}, ${pct(point.high as number)}]`;
      lines.push(
        [
          String(point.overlap).padStart(7),
          String(f.chunks).padStart(6),
          Number(f.zeroOverlapPct).toFixed(1).padStart(11),
          Number(f.pairsKeptPct).toFixed(1).padStart(11),
          pct(point.y).padStart(7),
          ci.padEnd(14),
          Number(f.meanDistinct).toFixed(2).padStart(8),
          ratio(point.tokensRatio).padStart(6),
          ratio(point.storageRatio).padStart(7),
        ].join("  "),
      );
    }
    lines.push(...describeKnee(curve.knee));
  }
  if (result.interrupted)
    lines.push(
      "",
      "interrupted: the table shows the finished configs only; re-run to complete (finished ones are cached).",
    );
  process.stdout.write(lines.join("\n") + "\n");
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...retrievalFlags,
      splitter: { type: "string" },
      size: { type: "string" },
      overlaps: { type: "string" },
      ks: { type: "string" },
      "final-k": { type: "string" },
      rerank: { type: "string" },
      "mmr-lambda": { type: "string" },
      metric: { type: "string" },
      sensitivity: { type: "string" },
      online: { type: "boolean" },
      epsilon: { type: "string" },
      price: { type: "string" },
      dims: { type: "string" },
      bytes: { type: "string" },
      workers: { type: "string" },
      quiet: { type: "boolean" },
      "no-cache": { type: "boolean" },
      "clear-cache": { type: "boolean" },
      "cache-dir": { type: "string" },
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
  const splitters = stringFlag(values, "splitter", "langchain")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
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
  const size = intFlag(values, "size", 1000, sizeBounds(unit, 1));
  const overlaps = intListFlag(values, "overlaps", [0, 50, 100, 200, 400], sizeBounds(unit, 0));
  const tooLarge = overlaps.find((overlap) => overlap >= size);
  if (tooLarge !== undefined)
    throw new SeamlabError(`--overlaps ${tooLarge} is not smaller than --size ${size}; every overlap must be.`);
  const spec: OverlapSweepSpec = {
    splitter: splitters,
    size,
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
  checkedConfigs(sweepGrid(spec)); // fail on a bad option before loading the corpus
  const inputs = loadEvaluationInputs(values);
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
    result = await runOverlapSweep({ docs: inputs.docs, queries: inputs.queries }, spec, {
      workers,
      quiet: Boolean(values.quiet),
      cacheDir: values["no-cache"] ? null : cacheDir,
      signal: controller.signal,
      nearDuplicateThreshold: evaluation.nearDuplicateThreshold,
      seed: evaluation.seed,
      metric,
      sensitivity,
      online: Boolean(values.online),
      epsilon,
      cost,
    });
  } finally {
    process.off("SIGINT", onSigint);
    await closeWorkers();
  }
  const rejected = rejectedCacheEntries();
  if (rejected > 0) {
    process.stderr.write(
      `seamlab: ${rejected} cached result(s) failed their checksum or key check and were recomputed (not used).\n`,
    );
  }
  if (values.json) {
    const report = {
      corpus: inputs.corpus,
      queries: inputs.queries.length,
      queriesFrom: inputs.source,
      queryLabel: inputs.queryLabel,
      total: result.total,
      cached: result.cached,
      computed: result.computed,
      interrupted: result.interrupted,
      workers: result.workers,
      elapsedMs: result.elapsedMs,
      rows: result.rows.map(flattenRow),
      curves: result.curves,
      // The first curve's knee; every curve (splitter x depth) carries its own in `curves`.
      knee: {
        kneedle: result.knee.kneedle,
        plateau: result.knee.plateau,
        agree: result.knee.agree,
        notes: result.knee.notes,
      },
    };
    process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  } else {
    printText(result, inputs.corpus, inputs.queryLabel);
  }
  return result.interrupted ? 130 : 0;
}
