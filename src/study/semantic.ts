// Semantic chunking against recursive (notebook 06): chunk sizes, seams, retrieval with BM25 and dense `lsa` (a
// corpus-fitted stand-in, not a neural model), neighbour similarity against real overlap, and the sentences under them.
import type { Chunk, Doc, Query } from "../core/types";
import { fitLsa, type LsaOptions } from "../embed/lsa";
import { wilsonInterval } from "../stats/proportion";
import { pairedComparison } from "../stats/paired";
import { pText, thousands } from "../stats/format";
import { measureSplit } from "../measure/summary";
import {
  neighbourRowsFromVectors,
  summariseNeighbours,
  type NeighbourRow,
  type NeighbourSummary,
} from "../measure/neighbour-similarity";
import { createBm25Retriever } from "../retrieval/bm25";
import { evaluateQueries, summarizeOutcomes, type RetrievalSummary } from "../retrieval/evaluate";
import { splitSemantic, semanticSentenceTexts } from "../splitters/semantic";
import { splitCorpus } from "../splitters/registry";
import type { Retriever } from "../retrieval/types";
import { createDenseRetriever } from "../retrieval/dense";
import { pairedShown, pct, signedInterval, signedPointsText } from "./format";

/** A chunking labelled for charts ("semantic (lsa)", "recursive 1000/200"), with its seam summary. */
export type ChunkingArm = ReturnType<typeof arm>;

export interface SemanticArmOptions {
  /** break below this percentile of a doc's neighbour-sentence similarities */
  percentile: number;
  maxLength: number;
  /** sentences repeated after a break (0-2) */
  overlapSentences: number;
  lsa?: LsaOptions;
}

function arm(docs: readonly Doc[], label: string, chunks: Chunk[], nominalOverlap: number, limit: number) {
  return { label, chunks, nominalOverlap, seams: measureSplit(docs, chunks, { nominalOverlap, limit }).summary };
}

/** The semantic chunker with sentence vectors from an lsa model fitted on the corpus's own sentences. */
export async function semanticArm(docs: readonly Doc[], options: SemanticArmOptions): Promise<ChunkingArm> {
  const semantic = {
    threshold: { percentile: options.percentile },
    maxLength: options.maxLength,
    overlapSentences: options.overlapSentences,
  };
  const embedder = fitLsa(semanticSentenceTexts(docs, semantic), options.lsa);
  const chunks: Chunk[] = await splitSemantic(docs, semantic, embedder);
  // Short: it labels bars and legends; the settings are in the notebook's parameters and prose.
  return arm(docs, "semantic (lsa)", chunks, 0, options.maxLength);
}

export function splitterArm(
  docs: readonly Doc[],
  splitter: string,
  size: number,
  overlap: number,
  label = `${splitter} ${size}/${overlap}`,
): ChunkingArm {
  return arm(docs, label, splitCorpus(docs as Doc[], { splitter, size, overlap }), overlap, size);
}

/** The chunk size a recursive baseline needs to match an arm's mean chunk length (rounded to 50, at least 100). */
export function matchedSize(reference: ChunkingArm): number {
  return Math.max(100, Math.round(reference.seams.chunkLength.mean / 50) * 50);
}

/** `{splitter, overlap}` rows of chunk lengths per arm (for `overlapHistogram` with value "length"). */
export function chunkLengthRows(arms: readonly ChunkingArm[]): { splitter: string; length: number }[] {
  return arms.flatMap((a) => a.chunks.map((c) => ({ splitter: a.label, length: c.end - c.start })));
}

export function armTableRows(arms: readonly ChunkingArm[]): Record<string, number | string>[] {
  return arms.map((a) => ({
    chunking: a.label,
    chunks: a.seams.chunks,
    "mean length (chars)": a.seams.chunkLength.mean,
    "p10 length": a.seams.chunkLength.p10,
    "p90 length": a.seams.chunkLength.p90,
    "zero-overlap seams (%)": a.seams.zeroOverlapPct,
    "mean overlap (chars)": a.seams.meanOverlap,
    "index size / corpus": a.seams.indexRatio,
  }));
}

export interface ArmRetrieval {
  arm: string;
  retriever: string;
  summary: RetrievalSummary;
  /** per query: whether it hit at k (for paired comparisons between arms) */
  hits: boolean[];
  /** dense only: neighbouring-chunk similarity under its vectors */
  neighbours?: NeighbourRow[];
  neighbourSummary?: NeighbourSummary;
}

/** BM25 and dense-lsa retrieval of one arm at k; the lsa model is fitted on the arm's own chunks. */
export async function retrieveArm(
  a: ChunkingArm,
  queries: readonly Query[],
  k: number,
  lsa?: LsaOptions,
): Promise<ArmRetrieval[]> {
  const retrieval = async (label: string, retriever: Retriever): Promise<ArmRetrieval> => {
    const outcomes = await evaluateQueries(a.chunks, queries, retriever, { k });
    const summary = summarizeOutcomes(outcomes, { k, chunks: a.chunks.length, retriever: retriever.name });
    return { arm: a.label, retriever: label, summary, hits: outcomes.map((o) => o.hit) };
  };
  const bm25 = await retrieval("BM25", createBm25Retriever(a.chunks));
  const texts = a.chunks.map((c) => c.text);
  const dense = await createDenseRetriever(a.chunks, fitLsa(texts, lsa));
  const { matrix, dimensions, count } = dense.index;
  const vectors = Array.from({ length: count }, (_, i) => matrix.subarray(i * dimensions, (i + 1) * dimensions));
  const neighbours = neighbourRowsFromVectors(a.chunks, vectors, dense.embedder.name);
  const denseRow = await retrieval("dense (lsa, not neural)", dense);
  return [bm25, { ...denseRow, neighbours, neighbourSummary: summariseNeighbours(neighbours) }];
}

/** `barWithCI` rows: hit rate with its Wilson CI per arm, for one retriever ("BM25" or "dense"). */
export function retrievalBarRows(
  results: readonly ArmRetrieval[],
  retriever: "BM25" | "dense",
): Record<string, number | string>[] {
  return results
    .filter((r) => r.retriever.startsWith("BM25") === (retriever === "BM25"))
    .map((r) => {
      const ci = wilsonInterval(r.summary.hits, r.summary.queries);
      return { label: r.arm, value: r.summary.hitRate, low: ci.low, high: ci.high };
    });
}

/** Scatter rows: neighbour similarity (y) against the real overlap share of the shorter chunk (x), per arm. */
export function neighbourScatterRows(results: readonly ArmRetrieval[]): Record<string, number | string>[] {
  return results.flatMap(({ neighbours = [], arm }) => {
    // An even, deterministic thinning (600 points per arm at most) keeps the page light; the table uses every pair.
    const step = Math.max(1, Math.ceil(neighbours.length / 600));
    const kept = neighbours.filter((_, i) => i % step === 0);
    return kept.map((n) => ({ x: n.overlapShare, y: n.similarity, series: arm }));
  });
}

export function neighbourTableRows(results: readonly ArmRetrieval[]): Record<string, number | string | null>[] {
  return results
    .filter((r) => r.neighbourSummary)
    .map((r) => {
      const s = r.neighbourSummary!;
      const finite = (v: number) => (Number.isFinite(v) ? v : null);
      return {
        chunking: r.arm,
        "neighbour pairs": s.pairs,
        "pairs sharing text": s.overlappingPairs,
        "mean cosine": finite(s.meanSimilarity),
        "mean cosine, sharing text": finite(s.meanSimilarityOverlapping),
        "mean cosine, disjoint": finite(s.meanSimilarityDisjoint),
        "Pearson r (overlap share, cosine)": finite(s.correlation),
      };
    });
}

/** Chunk count and lengths of the semantic arm, against the recursive arm at the configured size. */
export function chunkSizeFinding(semantic: ChunkingArm, recursive: ChunkingArm, size: number): string {
  const length = semantic.seams.chunkLength;
  return (
    `The semantic chunker makes **${thousands(semantic.seams.chunks)} ` +
    `chunks** of ${thousands(length.mean)} characters on average ` +
    `(${thousands(length.p10)}–${thousands(length.p90)} from p10 to p90), ` +
    `against ${thousands(recursive.seams.chunks)} recursive chunks at size ${size}.`
  );
}

/** The semantic arm against the size-matched recursive one on the same queries, for one retriever. */
function pairedArmText(semantic: ArmRetrieval, matched: ArmRetrieval): string {
  const paired = pairedComparison(semantic.hits, matched.hits);
  const shown = pairedShown(paired);
  return (
    `${signedPointsText(paired.diff)} points ` +
    `(paired 95% CI ${signedInterval(paired.diffCI.low, paired.diffCI.high, " to ")}, ` +
    `${paired.wins} wins and ${paired.losses} losses, McNemar ${pText(paired.mcnemarP)}): ` +
    (shown ? `semantic chunking is shown ${shown}` : "the data cannot tell them apart")
  );
}

/** Hit rate@k of each arm (semantic first) with BM25 and dense lsa, and semantic against the size-matched arm query by
 * query: overlapping CIs are not evidence of no difference, so the paired comparison decides. */
export function hitRateFinding(results: readonly ArmRetrieval[], arms: readonly ChunkingArm[], k: number): string {
  const result = (arm: ChunkingArm, bm25: boolean) =>
    results.find((r) => r.arm === arm.label && r.retriever.startsWith("BM25") === bm25)!;
  const hit = (arm: ChunkingArm, bm25: boolean) => pct(result(arm, bm25).summary.hitRate);
  const [semantic, recursive, matched] = arms;
  return (
    `With BM25, the semantic chunks reach a hit rate@${k} of **${hit(semantic, true)}**, against ` +
    `${hit(recursive, true)} for \`${recursive.label}\` and ${hit(matched, true)} for the size-matched ` +
    `\`${matched.label}\`. ` +
    `With the dense lsa retriever: ${hit(semantic, false)}, ${hit(recursive, false)} and ${hit(matched, false)}. ` +
    `Against the size-matched \`${matched.label}\` on the same ${thousands(result(semantic, true).hits.length)} ` +
    `queries, with BM25: ${pairedArmText(result(semantic, true), result(matched, true))}; with dense: ` +
    `${pairedArmText(result(semantic, false), result(matched, false))}.`
  );
}

/** Mean cosine of neighbours that share text against disjoint ones, for one chunking's row of the table. */
export function neighbourFinding(label: string, row: Record<string, number | string | null>): string {
  const value = (column: string) => thousands(row[column] as number, 2);
  return (
    `For \`${label}\`, neighbours that share text have a mean cosine of ${value("mean cosine, sharing text")} ` +
    `against ${value("mean cosine, disjoint")} for disjoint neighbours ` +
    `(Pearson r = ${value("Pearson r (overlap share, cosine)")}): ` +
    `overlap packs neighbours together in vector space, which is what fills a top-k with near-duplicates (notebook 04).`
  );
}
