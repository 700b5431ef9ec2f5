// The sentences notebook 06 writes under its tables and charts.
import { pairedComparison } from "../stats/paired";
import { pText, thousands } from "../stats/format";
import { pairedShown, pct, signedInterval, signedPointsText } from "./format";
import type { ArmRetrieval, ChunkingArm } from "./semantic";

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

/**
 * Hit rate@k of each arm (semantic first) with BM25 and dense lsa, and semantic against the size-matched arm query by
 * query: overlapping CIs are not evidence of no difference, so the paired comparison decides.
 */
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
