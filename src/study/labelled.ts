// Labelled evaluation (notebook 05): recall@k and span IoU per config, paired comparisons, and BM25/dense/hybrid, with
// the sentences under its tables and charts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Doc, Query } from "../core/types";
import { sha256 } from "../experiment/cache";
import { pairedComparison, type PairedComparison } from "../stats/paired";
import {
  evaluateRetriever,
  evaluateSplitterConfig,
  type ConfigEvaluation as SplitterEvaluation,
} from "../retrieval/evaluate-config";
import { createRetriever } from "../retrieval/factory";
import { createHybridRetriever } from "../retrieval/hybrid";
import type { Retriever } from "../retrieval/types";
import { splitCorpusAsync } from "../splitters/registry";
import type { SplitterConfig } from "../splitters/config";
import { loadLabelledSet } from "../corpus/labelled";
import type { LabelledReport } from "../corpus/types";
import { loadRetrievalInputs } from "./inputs";
import { isLabelledSpec } from "../retrieval/query-source";
import { headingMarks } from "../retrieval/header-queries";
import { lsaSpec } from "./dense";
import { pairedShown, pct, points, pointsInterval, signedInterval, signedPointsText } from "./format";
import { formatP, pText, thousands } from "../stats/format";
import type { Interval } from "../stats/types";

/** Writes queries as an answer-span JSONL file in `dir` (the shape a user's labelled file takes); returns its path. */
export function writeAnswerSpanJsonl(docs: readonly Doc[], queries: readonly Query[], dir: string): string {
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  const lines = queries.flatMap((query) => {
    const gold = query.gold[0];
    const doc = gold ? byId.get(gold.doc) : undefined;
    return doc
      ? [JSON.stringify({ question: query.text, answer_span: doc.text.slice(gold.start, gold.end), doc: doc.id })]
      : [];
  });
  const text = lines.join("\n") + "\n";
  const path = join(dir, `header-queries-${sha256(text).slice(0, 12)}.jsonl`);
  writeFileSync(path, text);
  return path;
}

/** Queries read back through a user's file's loader, via a fresh temp folder of their own, removed in any case. */
export function answerSpanRoundTrip(docs: readonly Doc[], queries: readonly Query[]) {
  const folder = mkdtempSync(join(tmpdir(), "seamlab-labelled-"));
  try {
    const file = writeAnswerSpanJsonl(docs, queries, folder);
    return { set: loadLabelledSet(file, docs, { skipMalformed: true }), folder };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A row of the labelled-set notebook: `evaluateSplitterConfig`'s result without timings; `label` names it if set. */
export type ConfigEvaluation = Omit<SplitterEvaluation, "timings"> & { label?: string };

/** A config's short label: "recursive 1000/200". */
export function configLabel(config: SplitterConfig): string {
  return `${config.splitter} ${config.size}/${config.overlap}`;
}

export function evaluationLabel(e: ConfigEvaluation): string {
  return e.label ?? configLabel(e.config);
}

/** One config, split once, under BM25, dense (`lsa`) and hybrid (the same two fused by RRF), labelled by retriever. */
export async function evaluateRetrievers(
  docs: readonly Doc[],
  queries: readonly Query[],
  config: SplitterConfig,
  k: number,
  embedderDims: number,
): Promise<ConfigEvaluation[]> {
  const settings = { embedder: lsaSpec(embedderDims) };
  const chunks = await splitCorpusAsync(docs as Doc[], config);
  const bm25 = await createRetriever("bm25", chunks, settings);
  const dense = await createRetriever("dense", chunks, settings);
  const hybrid = createHybridRetriever([bm25, dense]);
  const evaluate = (retriever: Retriever) => evaluateRetriever(docs, queries, config, chunks, retriever, { k });
  return [
    { ...(earlierBm25(docs, queries, config, k) ?? (await evaluate(bm25))), label: "BM25" },
    { ...(await evaluate(dense)), label: "dense (lsa)" },
    { ...(await evaluate(hybrid)), label: "hybrid (RRF)" },
  ];
}

// BM25 evaluations `evaluateConfigs` made, per docs and queries array: evaluateRetrievers reuses its config's.
const bm25Evaluations = new WeakMap<readonly Doc[], WeakMap<readonly Query[], Map<string, ConfigEvaluation>>>();
const bm25Key = (config: SplitterConfig, k: number) => JSON.stringify([config, k]);
const earlierBm25 = (docs: readonly Doc[], queries: readonly Query[], config: SplitterConfig, k: number) =>
  bm25Evaluations.get(docs)?.get(queries)?.get(bm25Key(config, k));

/** Evaluates each config with BM25 at k (split, index, query). */
export async function evaluateConfigs(
  docs: readonly Doc[],
  queries: readonly Query[],
  configs: readonly SplitterConfig[],
  k: number,
): Promise<ConfigEvaluation[]> {
  if (!bm25Evaluations.has(docs)) bm25Evaluations.set(docs, new WeakMap());
  const byQueries = bm25Evaluations.get(docs)!;
  if (!byQueries.has(queries)) byQueries.set(queries, new Map());
  const done = byQueries.get(queries)!;
  const out: ConfigEvaluation[] = [];
  for (const config of configs) {
    const evaluation = await evaluateSplitterConfig(docs, queries, config, { k });
    done.set(bm25Key(config, k), evaluation);
    out.push(evaluation);
  }
  return out;
}

type Summary = ConfigEvaluation["summary"];

/** `barWithCI` rows of one metric and its CI per config, times `scale`. */
function barRows(evaluations: readonly ConfigEvaluation[], metric: (s: Summary) => [number, Interval], scale = 1) {
  return evaluations.map((e): Record<string, number | string> => {
    const [value, ci] = metric(e.summary);
    return { label: evaluationLabel(e), value: scale * value, low: scale * ci.low, high: scale * ci.high };
  });
}

/** `barWithCI` rows of recall@k (fraction, bootstrap CI) per config. */
export function recallRows(evaluations: readonly ConfigEvaluation[]): Record<string, number | string>[] {
  return barRows(evaluations, (s) => [s.recallAtK, s.recallAtKCI]);
}

/** `barWithCI` rows of mean span IoU per config, in points: IoU is often a few percent, flat on a 0-100% axis. */
export function iouRows(evaluations: readonly ConfigEvaluation[]): Record<string, number | string>[] {
  return barRows(evaluations, (s) => [s.iou, s.iouCI], 100);
}

export function evaluationTableRows(evaluations: readonly ConfigEvaluation[]): Record<string, number | string>[] {
  return evaluations.map((e) => ({
    config: evaluationLabel(e),
    chunks: e.summary.chunks,
    [`recall@${e.summary.k} (%)`]: points(e.summary.recallAtK),
    "span recall (%)": points(e.summary.spanRecall),
    "span precision (%)": points(e.summary.spanPrecision),
    "span IoU (%)": points(e.summary.iou),
    "IoU, Chroma's way (%)": points(e.summary.chroma.iou),
    "index size / corpus": e.indexRatio,
  }));
}

/** Paired comparison of config A against config B on the same queries (hit = a gold span inside a top-k chunk). */
export function compareEvaluations(a: ConfigEvaluation, b: ConfigEvaluation): PairedComparison {
  const hits = (e: ConfigEvaluation) => e.outcomes.map((o) => o.hit);
  return pairedComparison(hits(a), hits(b));
}

export function comparisonTableRows(
  a: ConfigEvaluation,
  b: ConfigEvaluation,
  c: PairedComparison,
): Record<string, number | string>[] {
  return [
    {
      A: evaluationLabel(a),
      B: evaluationLabel(b),
      queries: c.queries,
      "A wins": c.wins,
      "B wins": c.losses,
      ties: c.ties,
      "hit rate A (%)": points(c.hitRateA),
      "hit rate B (%)": points(c.hitRateB),
      "A − B (points)": points(c.diff),
      "paired 95% CI": pointsInterval(c.diffCI.low, c.diffCI.high),
      "McNemar p": formatP(c.mcnemarP),
    },
  ];
}

/** `file`: "" when built from the corpus; `ambiguous`: answers found more than once (the first occurrence is gold). */
export type LabelledInputs = ReturnType<typeof labelledInputs>;

/** The user's labelled file when `queries` names one, else the corpus's header (or ICT) queries read back as one. */
export function labelledInputs(
  corpus: string,
  queries?: string,
  querySample?: string | number,
  headingLevels?: readonly number[],
) {
  const file = queries && isLabelledSpec(queries) ? queries : "";
  const inputs = loadRetrievalInputs(corpus, queries, file ? { querySample } : { querySample, headingLevels });
  const set = file
    ? { queries: inputs.queries, report: inputs.labelled as LabelledReport }
    : answerSpanRoundTrip(inputs.docs, inputs.queries).set;
  const marks = headingMarks(headingLevels);
  const ict = inputs.queryKind === "ict";
  const sampled = inputs.querySample.sampled;
  const builtLabel =
    `${thousands(set.queries.length)}${sampled ? ` of ${thousands(inputs.querySample.population)}` : ""} ` +
    `${ict ? "ICT queries (" : `header queries (${marks}, `}as a labelled file${sampled ? ", a seeded sample" : ""})`;
  const howBuilt = ict
    ? "each query is a sentence sampled from the corpus (removed from the text) and its neighbouring sentences the " +
      "answer span"
    : `each ${marks} heading is a question and the first sentence under it the answer span`;
  return {
    docs: inputs.docs,
    queries: set.queries,
    file,
    builtFromHeadings: !file,
    howBuilt: file ? "" : howBuilt,
    label: file ? inputs.queryLabel : builtLabel,
    ambiguous: set.report.ambiguous,
    skipped: set.report.rows - set.report.queries,
    description: inputs.description,
  };
}

/** Where the questions came from: the user's file, or a self-supervised proxy built from the headings or ICT. */
export function labelledSetFinding(set: LabelledInputs): string {
  if (!set.builtFromHeadings) {
    return (
      `Labelled file \`${set.file}\`: ${thousands(set.queries.length)} questions placed in ${set.description}; ` +
      `${thousands(set.skipped)} rows skipped, ${thousands(set.ambiguous)} ambiguous.`
    );
  }
  return (
    `**No labelled file was given, so one was built from the corpus** (${set.description}): ` +
    `${set.howBuilt}, written as answer-span JSONL to a temp folder (removed after reading) and read back through the ` +
    "same loader a user's CSV/JSONL goes through. " +
    "This is a self-supervised proxy, not human labels; set the `queries` parameter " +
    "(or `seamlab report --queries FILE`) to use real ones. " +
    `${thousands(set.queries.length)} questions; ${thousands(set.ambiguous)} answer texts occur more than once ` +
    "(the first occurrence is the gold span)."
  );
}

/** The config with the highest recall@k, and how little of its top-k is the answer (span IoU). */
export function bestRecallFinding(evaluations: readonly ConfigEvaluation[], k: number): string {
  const best = evaluations.reduce((a, b) => (b.summary.recallAtK > a.summary.recallAtK ? b : a));
  const s = best.summary;
  return (
    `The highest recall@${k} is **${pct(s.recallAtK)}** with \`${configLabel(best.config)}\` ` +
    `(95% CI ${pct(s.recallAtKCI.low)}–${pct(s.recallAtKCI.high)}); its span IoU is ${pct(s.iou)} — ` +
    `most of what a top-${k} hands the model is not the answer.`
  );
}

/** Wins, losses and ties of A against B, the hit-rate difference with its CI, and McNemar's verdict. */
export function pairedFinding(a: ConfigEvaluation, b: ConfigEvaluation, paired: PairedComparison): string {
  const verdict =
    pairedShown(paired) !== null
      ? "The difference is unlikely to be chance."
      : "The data cannot tell these configs apart.";
  return (
    `\`${configLabel(a.config)}\` against \`${configLabel(b.config)}\`: ` +
    `**${paired.wins} wins, ${paired.losses} losses, ${paired.ties} ties**; ` +
    `hit-rate difference ${signedPointsText(paired.diff)} points ` +
    `(95% CI ${signedInterval(paired.diffCI.low, paired.diffCI.high, " to ")}), McNemar ${pText(paired.mcnemarP)}. ` +
    verdict
  );
}

/** BM25, dense and hybrid on one config (in that order), and whether hybrid beats BM25 query by query. */
export function retrieverFinding(
  byRetriever: readonly ConfigEvaluation[],
  vsBm25: PairedComparison,
  k: number,
  embedder: string,
): string {
  const [sb, sd, sh] = byRetriever.map((e) => e.summary);
  const verdict =
    pairedShown(vsBm25) !== null
      ? vsBm25.diff > 0
        ? "Fusing in the dense ranking helps here."
        : "Fusing in the dense ranking hurts here."
      : "The data cannot tell hybrid from BM25 here: keep the simpler retriever.";
  return (
    `On \`${configLabel(byRetriever[0].config)}\`, recall@${k} is **${pct(sb.recallAtK)}** with BM25, ` +
    `**${pct(sd.recallAtK)}** dense and **${pct(sh.recallAtK)}** hybrid ` +
    `(span IoU ${pct(sb.iou)}, ${pct(sd.iou)} and ${pct(sh.iou)}; embedder ${embedder}). ` +
    `Hybrid against BM25: **${vsBm25.wins} wins, ${vsBm25.losses} losses, ${vsBm25.ties} ties**, ` +
    `difference ${signedPointsText(vsBm25.diff)} points ` +
    `(95% CI ${signedInterval(vsBm25.diffCI.low, vsBm25.diffCI.high, " to ")}), McNemar ${pText(vsBm25.mcnemarP)}. ` +
    verdict
  );
}
