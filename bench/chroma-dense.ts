// npm run bench:chroma-dense — BM25, lsa and hybrid (RRF) on Chroma's chunking-evaluation set, per corpus, for
// recursive 400/200 and 400/0 tokens and the semantic splitter, beside Chroma's published figures.
//
// Chroma's figures used OpenAI text-embedding-3-large, k = 5, and count overlapping retrieved text twice in
// precision and IoU; "char recall" and "IoU (chroma)" below are computed their way, "recall@5" is the share of
// gold spans fully inside some top-5 chunk, "IoU (merged)" counts overlapping text once.
// Recursive configs use Chroma's separators ["\n\n", "\n", ".", "?", "!", " ", ""] and cl100k tokens.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Chunk, Doc, Query } from "../src/core/types";
import { loadLabelledSet } from "../src/corpus/labelled";
import { readTextFile } from "../src/corpus/text-file";
import { fitLsa } from "../src/embed/lsa";
import { createBm25Retriever } from "../src/retrieval/bm25";
import { createDenseRetriever } from "../src/retrieval/dense";
import { evaluateQueries, summarizeOutcomes, type RetrievalSummary } from "../src/retrieval/evaluate";
import { createHybridRetriever } from "../src/retrieval/hybrid";
import {
  neighbourRowsFromVectors,
  summariseNeighbours,
  type NeighbourSummary,
} from "../src/measure/neighbour-similarity";
import type { Retriever } from "../src/retrieval/types";
import { splitRecursive } from "../src/splitters/recursive";
import { semanticSentenceTexts, splitSemantic, type SemanticOptions } from "../src/splitters/semantic";
import { dataDirOrSkip } from "../test/helpers/data-dir";

const chromaSeparators = ["\n\n", "\n", ".", "?", "!", " ", ""];
const published: Record<string, string> = {
  "recursive 400/200": "88.1 / 3.3 / 3.3",
  "recursive 400/0": "89.5 / 3.6 / 3.6",
};

interface Row {
  config: string;
  retriever: string;
  corpus: string;
  summary: RetrievalSummary;
}

const pct = (x: number) => (100 * x).toFixed(1);

async function main(): Promise<void> {
  const data = dataDirOrSkip("bench:chroma-dense", "chroma-chunking-eval");
  if (!data) return;
  const root = join(data, "chroma-chunking-eval");
  const started = performance.now();
  const files = readdirSync(join(root, "corpora"))
    .filter((f) => f.endsWith(".md"))
    .sort();
  const docs: Doc[] = files.map((f) => ({ id: f.replace(/\.md$/, ""), text: readTextFile(join(root, "corpora", f)) }));
  const labelled = loadLabelledSet(join(root, "questions_df.csv"), docs);
  const queries = labelled.queries;
  console.log(
    `${docs.length} corpora, ${queries.length} questions (${labelled.report.offsetsCorrected} offsets corrected by the loader)`,
  );

  const semanticOptions: SemanticOptions = {
    threshold: { percentile: 10 },
    maxSentences: 40,
    maxLength: 400,
    unit: "tokens",
  };
  const configs: { name: string; split: () => Promise<Chunk[]> }[] = [
    {
      name: "recursive 400/200",
      split: async () =>
        docs.flatMap((d) =>
          splitRecursive(d, {
            splitter: "recursive",
            size: 400,
            overlap: 200,
            unit: "tokens",
            separators: chromaSeparators,
          }),
        ),
    },
    {
      name: "recursive 400/0",
      split: async () =>
        docs.flatMap((d) =>
          splitRecursive(d, {
            splitter: "recursive",
            size: 400,
            overlap: 0,
            unit: "tokens",
            separators: chromaSeparators,
          }),
        ),
    },
    {
      name: "semantic p10 ≤400 tok",
      split: async () =>
        splitSemantic(docs, semanticOptions, fitLsa(semanticSentenceTexts(docs, semanticOptions), { dimensions: 256 })),
    },
  ];

  const rows: Row[] = [];
  const neighbours: { config: string; summary: NeighbourSummary }[] = [];
  for (const config of configs) {
    const t0 = performance.now();
    const chunks = await config.split();
    const t1 = performance.now();
    const bm25 = createBm25Retriever(chunks);
    const lsa = await createDenseRetriever(
      chunks,
      fitLsa(
        chunks.map((c) => c.text),
        { dimensions: 256 },
      ),
    );
    const hybrid = createHybridRetriever([bm25, lsa]);
    const dims = lsa.index.dimensions;
    const vectors = chunks.map((_, i) => lsa.index.matrix.subarray(i * dims, (i + 1) * dims));
    neighbours.push({
      config: config.name,
      summary: summariseNeighbours(neighbourRowsFromVectors(chunks, vectors, lsa.embedder.name)),
    });
    const t2 = performance.now();
    const meanTokens = chunks.reduce((s, c) => s + c.text.length, 0) / chunks.length;
    console.log(
      `${config.name}: ${chunks.length} chunks (mean ${meanTokens.toFixed(0)} chars), split ${((t1 - t0) / 1000).toFixed(1)} s, ` +
        `indexes ${((t2 - t1) / 1000).toFixed(1)} s; dense = ${lsa.name}`,
    );
    for (const [label, retriever] of [
      ["bm25", bm25],
      ["lsa", lsa],
      ["hybrid", hybrid],
    ] as [string, Retriever][]) {
      const outcomes = await evaluateQueries(chunks, queries, retriever, { k: 5 });
      const summarise = (picked: number[], corpus: string) =>
        rows.push({
          config: config.name,
          retriever: label,
          corpus,
          summary: summarizeOutcomes(
            picked.map((i) => outcomes[i]),
            { retriever: retriever.name, k: 5, chunks: chunks.length },
          ),
        });
      summarise(
        queries.map((_, i) => i),
        "all",
      );
      for (const doc of docs) summarise(queryIndicesFor(queries, doc.id), doc.id);
    }
  }

  console.log("\nrecall@5 (full span) / char recall / IoU (chroma) / IoU (merged), %, k = 5\n");
  const corpora = ["all", ...docs.map((d) => d.id)];
  console.log(`| config | retriever | ${corpora.join(" | ")} | Chroma published (recall/prec/IoU, OpenAI 3-large) |`);
  console.log(`|---|---|${corpora.map(() => "---").join("|")}|---|`);
  for (const config of configs) {
    for (const retriever of ["bm25", "lsa", "hybrid"]) {
      const cells = corpora.map((corpus) => {
        const s = rows.find(
          (r) => r.config === config.name && r.retriever === retriever && r.corpus === corpus,
        )!.summary;
        return `${pct(s.recallAtK)} / ${pct(s.chroma.spanRecall)} / ${pct(s.chroma.iou)} / ${pct(s.iou)}`;
      });
      console.log(
        `| ${config.name} | ${retriever} | ${cells.join(" | ")} | ${retriever === "bm25" ? (published[config.name] ?? "n/a") : ""} |`,
      );
    }
  }
  console.log("\nneighbouring chunks (same doc, span order): cosine under lsa-256 vs real overlap\n");
  console.log(
    "| config | pairs | overlapping | mean cos | mean cos overlapping | mean cos disjoint | corr(overlap share, cos) |",
  );
  console.log("|---|---|---|---|---|---|---|");
  const f = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3));
  for (const { config, summary: n } of neighbours) {
    console.log(
      `| ${config} | ${n.pairs} | ${n.overlappingPairs} | ${f(n.meanSimilarity)} | ${f(n.meanSimilarityOverlapping)} | ${f(n.meanSimilarityDisjoint)} | ${f(n.correlation)} |`,
    );
  }
  console.log(
    `\nlsa = ${rows.length > 0 ? "lsa-256 (TF-IDF+SVD fitted on this corpus; not a neural model)" : ""}; total ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

function queryIndicesFor(queries: readonly Query[], doc: string): number[] {
  return queries.map((q, i) => (q.gold[0]?.doc === doc ? i : -1)).filter((i) => i >= 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
