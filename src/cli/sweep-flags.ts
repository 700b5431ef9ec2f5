/** `seamlab sweep`'s flags: the --help text, the options, and the settings, all checked before the corpus is read. */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { SeamlabError } from "../core/errors";
import type { Unit } from "../splitters/config";
import { checkedConfigs } from "../experiment/plan";
import { sweepConfigs, type OverlapSweepSpec, type SweepMetric } from "../experiment/sweep";
import {
  checkEvaluationInputFlags,
  evaluationOptionsFrom,
  retrievalFlags,
  retrievalHelp,
  sizeBounds,
  unitFromFlags,
} from "./flag-groups";
import {
  choiceFlag,
  commaList,
  flagOptions,
  intFlag,
  intListFlag,
  LIMITS,
  numberFlag,
  optionalIntFlag,
  refuseTogether,
  stringFlag,
} from "./flags";
import {
  DEFAULT_SWEEP_OVERLAPS,
  parseOverlapList,
  resolveOverlaps,
  type OverlapSetting,
} from "../experiment/overlap-share";
import { readGroupRules } from "../experiment/groups";
import { byTypeHelp } from "./sweep-by-type";
import { parseContextBudget } from "../retrieval/context-budget";
import { parseExpandList, parseParentsList } from "../retrieval/expand";
import { parseBudgetMinutes } from "../experiment/budget";
import { parseSampleRequest } from "../corpus/sample";
import { exportHelp } from "./sweep-export";

export const sweepHelp = `Usage: seamlab sweep [--corpus SPEC] [--queries headers|ict|FILE] --splitter NAME --size N \
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
  --ks LIST                   first-stage depths (retrieval_k; default 5); --k N is the same as --ks N
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

const sweepOptions = {
  ...retrievalFlags,
  ...flagOptions(["splitter", "size", "sizes", "overlaps", "ks", "final-k", "rerank", "mmr-lambda", "metric"]),
  ...flagOptions(["sensitivity", "epsilon", "margin", "groups", "price", "dims", "bytes", "workers", "cache-dir"]),
  ...flagOptions(["types", "min-queries", "budget", "sample", "export", "context-budget", "expand", "parents"]),
  ...flagOptions([], ["online", "quiet", "no-cache", "clear-cache", "by-type", "force"]),
  help: { type: "boolean", short: "h" },
} as const;

export function parseSweepFlags(argv: string[]) {
  return kAsKs(parseArgs({ args: argv, options: sweepOptions, strict: true }).values);
}

/** `--k N` is `--ks N` (one first-stage depth), as `retrieve` and `report` take it; with `--ks` it is refused. */
function kAsKs<V extends { k?: string; ks?: string }>(values: V): V {
  if (values.k === undefined) return values;
  refuseTogether(values, "k", "ks", "--k N is the same as --ks N (one depth); give --ks LIST for several.");
  if (values.k.includes(","))
    throw new SeamlabError(`--k takes one depth; for several use --ks ${values.k} (one verdict per depth).`);
  intFlag(values, "k", 5, { min: 1, max: LIMITS.k, unit: "chunks" });
  return { ...values, ks: values.k };
}
type SweepFlags = ReturnType<typeof parseSweepFlags>;

/** Worker threads: as asked, else all cores up to `limit` chars (past it, corpus copies cost more than cores gain). */
export function sweepWorkers(
  asked: number | undefined,
  chars: number,
  limit = 200_000_000,
): { workers: number | undefined; note?: string } {
  if (asked !== undefined || chars <= limit) return { workers: asked };
  return {
    workers: 0,
    note:
      `${(chars / 1e6).toFixed(0)} M characters: computing in this thread, since every worker thread would hold a ` +
      `copy of the corpus (--workers N to override)`,
  };
}

/** The settings of a plain sweep (not --by-type), each flag checked. */
export function sweepSettingsFromFlags(values: SweepFlags) {
  const sampleRequest = parseSampleRequest(values.sample, "--sample");
  const splitters = commaList(stringFlag(values, "splitter", "langchain"));
  const unit: Unit = unitFromFlags(values, splitters);
  const metric: SweepMetric =
    choiceFlag(values, "metric", ["recall", "hit-rate"], "recall") === "recall" ? "recallAtK" : "hitRate";
  const reranker = stringFlag(values, "rerank", "none");
  const ks = intListFlag(values, "ks", [5], { min: 1, max: LIMITS.k, unit: "chunks" });
  const finalKRaw = optionalIntFlag(values, "final-k", { min: 1, max: LIMITS.k, unit: "chunks" });
  if (finalKRaw !== undefined && finalKRaw > Math.min(...ks))
    throw new SeamlabError(
      `--final-k ${finalKRaw} is larger than the smallest --ks value ${Math.min(...ks)}; the reranker can only cut.`,
    );
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
  const settings = {
    spec,
    sampleRequest,
    metric,
    evaluation,
    workers: optionalIntFlag(values, "workers", { min: 0, max: LIMITS.parallel, unit: "threads" }),
    sensitivity: numberFlag(values, "sensitivity", 1, { min: 0, max: 100, exclusiveMin: true }),
    epsilon: numberFlag(values, "epsilon", 0, { min: 0, max: 1 }),
    cost: {
      pricePerMillionTokens: numberFlag(values, "price", 0.13, { min: 0, max: 1_000_000, unit: "per million tokens" }),
      dims: intFlag(values, "dims", 1536, { min: 1, max: LIMITS.dims, unit: "dimensions" }),
      bytesPerDim: intFlag(values, "bytes", 4, { min: 1, max: 16, unit: "bytes" }),
    },
  };
  checkEvaluationInputFlags(values);
  const budgetMinutes = parseBudgetMinutes(values.budget);
  refuseTogether(values, "budget", "query-sample", "--budget chooses the query sample; give one or the other.");
  const margin = numberFlag(values, "margin", 1, { min: 0, max: 99, exclusiveMin: true, unit: "points" }) / 100;
  const groupsFlag = values.groups === undefined ? undefined : stringFlag(values, "groups");
  const groupRules =
    groupsFlag === undefined || groupsFlag === "folder" ? undefined : readGroupRules(resolve(groupsFlag));
  checkedConfigs(sweepConfigs(spec)); // fail on a bad option before loading the corpus
  return { ...settings, budgetMinutes, margin, groupsFlag, groupRules };
}
