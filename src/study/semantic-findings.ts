// The sentences notebook 06 writes under its tables and charts, built from the arms' results so cells stay short.
import { num, pct } from "./format";
import type { ArmRetrieval, ChunkingArm } from "./semantic";

/** Chunk count and lengths of the semantic arm, against the recursive arm at the configured size. */
export function chunkSizeFinding(semantic: ChunkingArm, recursive: ChunkingArm, size: number): string {
  const length = semantic.seams.chunkLength;
  return (
    `The semantic chunker makes **${num(semantic.seams.chunks)} ` +
    `chunks** of ${num(length.mean)} characters on average ` +
    `(${num(length.p10)}–${num(length.p90)} from p10 to p90), ` +
    `against ${num(recursive.seams.chunks)} recursive chunks at size ${size}.`
  );
}

/** Hit rate@k of each arm (the semantic one first), with BM25 and with the dense lsa retriever. */
export function hitRateFinding(results: readonly ArmRetrieval[], arms: readonly ChunkingArm[], k: number): string {
  const hit = (arm: ChunkingArm, bm25: boolean) =>
    pct(results.find((r) => r.arm === arm.label && r.retriever.startsWith("BM25") === bm25)!.summary.hitRate);
  const [semantic, recursive, matched] = arms;
  return (
    `With BM25, the semantic chunks reach a hit rate@${k} of **${hit(semantic, true)}**, against ` +
    `${hit(recursive, true)} for \`${recursive.label}\` and ${hit(matched, true)} for the size-matched ` +
    `\`${matched.label}\`. ` +
    `With the dense lsa retriever: ${hit(semantic, false)}, ${hit(recursive, false)} and ${hit(matched, false)}.`
  );
}

/** Mean cosine of neighbours that share text against disjoint ones, for one chunking's row of the table. */
export function neighbourFinding(label: string, row: Record<string, number | string | null>): string {
  const value = (column: string) => num(row[column] as number, 2);
  return (
    `For \`${label}\`, neighbours that share text have a mean cosine of ${value("mean cosine, sharing text")} ` +
    `against ${value("mean cosine, disjoint")} for disjoint neighbours ` +
    `(Pearson r = ${value("Pearson r (overlap share, cosine)")}): ` +
    `overlap packs neighbours together in vector space, which is what fills a top-k with near-duplicates (notebook 04).`
  );
}
