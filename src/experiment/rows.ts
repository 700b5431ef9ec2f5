import { totalChars, type Chunk, type Doc, type Query } from "../core/types";
import {
  measureSeamDamage,
  seamDamageByDoc,
  straddlingPairs,
  totalSeamDamage,
  type SeamDamage,
  type StraddlingPair,
} from "../measure/pairs";
import { clusterRatioInterval } from "../stats/cluster";
import { docsOfSample, type RowSample } from "./row-sample";
import { measureSplit, type SeamSummary } from "../measure/summary";
import { summarizeOutcomes, type RetrievalSummary } from "../retrieval/evaluate";
import { createRetriever } from "../retrieval/factory";
import { loadReranker } from "../retrieval/rerank";
import type { RankedChunk, Retriever } from "../retrieval/types";
import { splitCorpus } from "../splitters/registry";
import { canonicalJson } from "../core/canonical-json";
import { describeConfig, groupBy, splitterKey, type ExperimentConfig, type RetrievalSetting } from "./grid";
import { chunkTokenCounter } from "./token-count";
import { tokenCounter } from "../text/tokens";
import { SETUP_ENCODING, setupPairs, setupPieces, type DocSetup } from "./doc-setup";
import { contextOutcomes } from "./context-rows";

/**
 * One row of an experiment grid: every number of one config, as plain JSON (cached on disk, sent between threads).
 * Nothing time-dependent goes in a row, so a cached row and a fresh one are identical.
 */
export interface GridRow {
  label: string;
  /** Cache key (hash of corpus, queries, config, seamlab version and code). */
  key: string;
  config: ExperimentConfig;
  seams: SeamSummary;
  damage: SeamDamage;
  /** Metrics @finalK, with CIs. */
  retrieval: RetrievalSummary;
  /** Tokens over all chunk texts: what embedding the index costs. */
  tokensEmbedded: number;
  /** One character per query, in query order: "1" hit at finalK, "0" miss. */
  hits: string;
  /** Present when `damage` and `tokensEmbedded` (then a whole-corpus estimate) come from a document sample. */
  sample?: RowSampleNote;
}

export type RowSampleNote = ReturnType<typeof sampledMeasures>["note"];

export interface SweepInputs {
  docs: readonly Doc[];
  queries: readonly Query[];
  /** Measure seam damage and embedded tokens on these documents only; retrieval indexes all. */
  sample?: RowSample;
}

export interface RowOptions {
  /** Term-set Jaccard at which a retrieved chunk is a near-duplicate of a higher one. Default 0.7. */
  nearDuplicateThreshold?: number;
  /** Seed of the bootstrap CIs. Default 1. */
  seed?: number;
}

// What depends on the docs alone is computed once per docs array, for every config of a sweep.
const pairsByDocs = new WeakMap<readonly Doc[], StraddlingPair[]>();
const chunkCounters = new WeakMap<readonly Doc[], (chunk: Chunk) => number>();
function memoized<K, V>(
  memo: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = memo.get(key);
  if (value === undefined) memo.set(key, (value = make()));
  return value;
}
const pairsOf = (docs: readonly Doc[]) => memoized(pairsByDocs, docs, () => straddlingPairs(docs));
const chunkCounterOf = (docs: readonly Doc[]) =>
  memoized(chunkCounters, docs, () => chunkTokenCounter(docs, SETUP_ENCODING));

/** Fills the caches above from a setup built across the worker threads (see doc-setup), unless filled already. */
export function useDocSetup(docs: readonly Doc[], setup: DocSetup): void {
  if (setup.docCount !== docs.length) throw new Error("doc setup: built for another corpus");
  memoized(pairsByDocs, docs, () => setupPairs(docs, setup));
  memoized(chunkCounters, docs, () => chunkTokenCounter(docs, SETUP_ENCODING, (i) => setupPieces(setup, i)));
}

/** Runs each query once at the deepest k asked for and serves shallower depths as prefixes, batches included. */
function deepestFirst(base: Retriever, depth: number): Retriever {
  const memo = new Map<string, RankedChunk[]>();
  const retriever: Retriever = {
    name: base.name,
    async search(query, k) {
      if (k > depth) return base.search(query, k); // a context budget may need a deeper ranking
      let ranked = memo.get(query);
      if (!ranked) {
        ranked = await base.search(query, depth);
        memo.set(query, ranked);
      }
      return ranked.slice(0, k);
    },
  };
  if (base.searchMany) {
    const many = base.searchMany.bind(base);
    retriever.searchMany = async (queries, k) => {
      if (k > depth) return many(queries, k);
      const missing = [...new Set(queries.filter((query) => !memo.has(query)))];
      if (missing.length > 0) (await many(missing, depth)).forEach((ranked, i) => memo.set(missing[i], ranked));
      return queries.map((query) => (memo.get(query) as RankedChunk[]).slice(0, k));
    };
  }
  return retriever;
}

/** Seam damage on the sample's documents; tokens as tokens per chunk character there times every chunk's characters. */
function sampledMeasures(docs: readonly Doc[], chunks: readonly Chunk[], rowSample: RowSample, seed = 1) {
  const measured = docsOfSample(docs, rowSample);
  const position = new Map(measured.map((doc, i) => [doc.id, i]));
  const measuredChunks = chunks.filter((chunk) => position.has(chunk.doc));
  const byDoc = seamDamageByDoc(measured, measuredChunks, pairsOf(measured));
  const damage = totalSeamDamage(byDoc);
  const kept = clusterRatioInterval(byDoc.kept, byDoc.pairs, rowSample.strata, { seed });
  const countChunkTokens = chunkCounterOf(measured);
  const tokens = new Array<number>(measured.length).fill(0);
  const chars = new Array<number>(measured.length).fill(0);
  for (const chunk of measuredChunks) {
    const at = position.get(chunk.doc) as number;
    tokens[at] += countChunkTokens(chunk);
    chars[at] += chunk.text.length;
  }
  const allChars = totalChars(chunks);
  const perChar = clusterRatioInterval(tokens, chars, rowSample.strata, { seed });
  const scale = (ratio: number) => (Number.isNaN(ratio) ? 0 : Math.round(ratio * allChars));
  const note = {
    documents: measured.length,
    population: rowSample.population,
    description: rowSample.description,
    // 95% CIs (cluster bootstrap over documents).
    keptPctCI: Number.isNaN(kept.value) ? { low: 0, high: 0 } : { low: 100 * kept.low, high: 100 * kept.high },
    tokensEmbeddedCI: { low: scale(perChar.low), high: scale(perChar.high) },
  };
  return { damage, tokensEmbedded: scale(perChar.value), note };
}

/** Rows of configs (one at least) sharing one splitter config: split, measured and indexed once; `keys[i]` in row i. */
async function computeRows(
  inputs: SweepInputs,
  configs: readonly ExperimentConfig[],
  keys: readonly string[],
  options: RowOptions = {},
): Promise<GridRow[]> {
  const splitter = configs[0].splitter;
  const docs = inputs.docs as Doc[];
  const chunks: Chunk[] = splitCorpus(docs, splitter);
  const encoding = splitter.encoding ?? "cl100k_base";
  const unit = splitter.unit ?? "chars";
  const seams = measureSplit(docs, chunks, {
    nominalOverlap: splitter.overlap,
    unit,
    limit: splitter.size,
    countTokens: unit === "tokens" ? tokenCounter(encoding) : undefined,
  }).summary;
  let damage: SeamDamage;
  let tokensEmbedded = 0;
  let sample: RowSampleNote | undefined;
  // Tokens per chunk, for the prompt each query's context costs.
  const chunkTokens = new Map<number, number>();
  if (inputs.sample) {
    ({ damage, tokensEmbedded, note: sample } = sampledMeasures(docs, chunks, inputs.sample, options.seed));
  } else {
    damage = measureSeamDamage(docs, chunks, pairsOf(docs));
    const countChunkTokens = chunkCounterOf(docs);
    chunks.forEach((chunk, index) => {
      const tokens = countChunkTokens(chunk);
      chunkTokens.set(index, tokens);
      tokensEmbedded += tokens;
    });
  }
  const countText = tokenCounter(SETUP_ENCODING);
  const tokensOf = (index: number) => memoized(chunkTokens, index, () => countText(chunks[index].text));

  // One first-stage index per retriever and settings. Only these queries are ever asked, so BM25 indexes their
  // terms alone (identical rankings, far fewer postings).
  const scope = { queries: inputs.queries.map((query) => query.text), docs: inputs.docs };
  const firstStages = new Map<string, Promise<Retriever>>();
  const stageId = (r: RetrievalSetting) => canonicalJson([r.retriever ?? "bm25", r.retrieverSettings ?? {}]);
  const firstStageFor = ({ retrieval: r }: ExperimentConfig) =>
    memoized(firstStages, stageId(r), () => {
      const depth = Math.max(...configs.filter((c) => stageId(c.retrieval) === stageId(r)).map((c) => c.retrieval.k));
      const stage = createRetriever(r.retriever ?? "bm25", chunks, r.retrieverSettings ?? {}, scope);
      return stage.then((base) => deepestFirst(base, depth));
    });

  // One reranker per name and options, shared by the depths that use it (a dense one fits its model once).
  const rerankers = new Map<string, ReturnType<typeof loadReranker>>();
  const rerankerFor = (r: RetrievalSetting) =>
    memoized(rerankers, canonicalJson([r.reranker ?? "none", r.rerankerOptions ?? {}]), () =>
      loadReranker(r.reranker ?? "none", r.rerankerOptions),
    );

  const rows: GridRow[] = [];
  for (let i = 0; i < configs.length; i++) {
    const config = configs[i];
    const r = config.retrieval;
    const finalK = r.finalK ?? r.k;
    const first = await firstStageFor(config);
    const reranker = await rerankerFor(r);
    const pipeline: Retriever = {
      name: reranker.name === "none" ? first.name : `${first.name} top-${r.k} -> ${reranker.name}`,
      async search(query, k) {
        const candidates = await first.search(query, r.k);
        return reranker.rerank(query, candidates, chunks, k);
      },
    };
    if (first.searchMany) {
      const many = first.searchMany.bind(first);
      pipeline.searchMany = async (queries, k) => {
        const batch = await many(queries, r.k);
        const out: RankedChunk[][] = [];
        for (let q = 0; q < queries.length; q++) out.push(await reranker.rerank(queries[q], batch[q], chunks, k));
        return out;
      };
    }
    const evaluation = {
      k: finalK,
      nearDuplicateThreshold: options.nearDuplicateThreshold,
      tokensOf,
      countTokens: countText,
    };
    // A budget ranks as deep as it needs, on the first stage (contextOutcomes refuses a reranker).
    const ranker = r.contextBudget ? first : pipeline;
    const outcomes = await contextOutcomes(chunks, docs, inputs.queries, ranker, config, evaluation);
    const retrieval = summarizeOutcomes(
      outcomes,
      { retriever: pipeline.name, k: finalK, chunks: chunks.length },
      { seed: options.seed, nearDuplicateThreshold: options.nearDuplicateThreshold },
    );
    rows.push({
      label: describeConfig(config),
      key: keys[i],
      config,
      seams,
      damage,
      retrieval,
      tokensEmbedded,
      hits: outcomes.map((o) => (o.hit ? "1" : "0")).join(""),
      ...(sample ? { sample } : {}),
    });
  }
  return rows;
}

/** Rows of any configs, in the given order; configs sharing a splitter config are computed together. */
export async function computeTaskRows(
  inputs: SweepInputs,
  configs: readonly ExperimentConfig[],
  keys: readonly string[],
  options: RowOptions = {},
): Promise<GridRow[]> {
  const out: GridRow[] = new Array(configs.length);
  for (const positions of groupBy(Array.from(configs.keys()), (i) => splitterKey(configs[i])).values()) {
    const pick = <T>(list: readonly T[]) => positions.map((i) => list[i]);
    const rows = await computeRows(inputs, pick(configs), pick(keys), options);
    positions.forEach((position, j) => (out[position] = rows[j]));
  }
  return out;
}
