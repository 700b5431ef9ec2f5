import type { Chunk, Doc, Query } from "../core/types";
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
import { describeConfig, splitterKey, type ExperimentConfig } from "./grid";
import { chunkTokenCounter } from "./token-count";
import { tokenCounter } from "../text/tokens";
import { SETUP_ENCODING, setupPairs, setupPieces, type DocSetup } from "./doc-setup";
import { contextOutcomes } from "./context-rows";

/**
 * One row of an experiment grid: every seam and retrieval number of one config, as plain JSON (it is
 * cached on disk and sent between threads). Nothing time-dependent goes in a row, so a cached row and a
 * fresh one are identical.
 */
export interface GridRow {
  label: string;
  /** Cache key (hash of corpus, queries, config, seamlab version). */
  key: string;
  config: ExperimentConfig;
  seams: SeamSummary;
  damage: SeamDamage;
  /** Metrics @finalK (after reranking), with CIs. */
  retrieval: RetrievalSummary;
  /** cl100k (or the config's encoding) tokens over all chunk texts: what embedding the index costs. */
  tokensEmbedded: number;
  /** One character per query, in query order: "1" hit at finalK, "0" miss. For paired comparisons. */
  hits: string;
  /**
   * Present when `damage` and `tokensEmbedded` come from a document sample (absent: every document). `damage`
   * then counts the sampled documents' pairs; `tokensEmbedded` is an estimate for the whole corpus (tokens per
   * chunk character on the sample × the corpus's chunk characters). CIs: cluster bootstrap over documents.
   */
  sample?: RowSampleNote;
}

/** What a sampled row says about its sample. */
export interface RowSampleNote {
  documents: number;
  population: number;
  description: string;
  /** 95% CI of `damage.keptPct`, in percent. */
  keptPctCI: { low: number; high: number };
  /** 95% CI of the estimated `tokensEmbedded`. */
  tokensEmbeddedCI: { low: number; high: number };
}

/** What every config of one sweep shares: the documents that are split and the queries. */
export interface SweepInputs {
  docs: readonly Doc[];
  queries: readonly Query[];
  /** Measure seam damage and embedded tokens on these documents only (default: all); retrieval indexes all. */
  sample?: RowSample;
}

export interface RowOptions {
  /** Term-set Jaccard at which a retrieved chunk is a near-duplicate of a higher one. Default 0.7. */
  nearDuplicateThreshold?: number;
  /** Seed of the bootstrap CIs. Default 1. */
  seed?: number;
}

// Sentence pairs straddling paragraph breaks depend only on the docs: computed once per docs array.
const pairsByDocs = new WeakMap<readonly Doc[], StraddlingPair[]>();
function pairsOf(docs: readonly Doc[]): StraddlingPair[] {
  let pairs = pairsByDocs.get(docs);
  if (!pairs) {
    pairs = straddlingPairs(docs);
    pairsByDocs.set(docs, pairs);
  }
  return pairs;
}

// Per-document token pieces are reused by every config of a sweep over the same docs array.
const chunkCounters = new WeakMap<readonly Doc[], (chunk: Chunk) => number>();
function chunkCounterOf(docs: readonly Doc[]): (chunk: Chunk) => number {
  let counter = chunkCounters.get(docs);
  if (!counter) {
    counter = chunkTokenCounter(docs, SETUP_ENCODING);
    chunkCounters.set(docs, counter);
  }
  return counter;
}

/**
 * Fills the two caches above for `docs` from a setup built elsewhere (by several worker threads, see doc-setup), so
 * this thread does not read the corpus again for them. Does nothing when they are filled already.
 */
export function useDocSetup(docs: readonly Doc[], setup: DocSetup): void {
  if (setup.docCount !== docs.length) throw new Error("doc setup: built for another corpus");
  if (!pairsByDocs.has(docs)) pairsByDocs.set(docs, setupPairs(docs, setup));
  if (!chunkCounters.has(docs))
    chunkCounters.set(
      docs,
      chunkTokenCounter(docs, SETUP_ENCODING, (i) => setupPieces(setup, i)),
    );
}

/**
 * Runs each query once at the deepest k any setting asks for and serves shallower depths as prefixes; a batch
 * (`searchMany`) goes to the base's own batch search when it has one (dense scores queries in blocks).
 */
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

/**
 * Seam damage and embedded tokens on the sample's documents: damage counted there with a cluster-bootstrap CI,
 * tokens estimated for the whole corpus as tokens per chunk character on the sample times every chunk's characters.
 */
function sampledMeasures(
  docs: readonly Doc[],
  chunks: readonly Chunk[],
  rowSample: RowSample,
  seed = 1,
): { damage: SeamDamage; tokensEmbedded: number; note: RowSampleNote } {
  const measured = docsOfSample(docs, rowSample);
  const position = new Map(measured.map((doc, i) => [doc.id, i]));
  const measuredChunks = chunks.filter((chunk) => position.has(chunk.doc));
  const pairs = pairsOf(measured);
  const byDoc = seamDamageByDoc(measured, measuredChunks, pairs);
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
  let allChars = 0;
  for (const chunk of chunks) allChars += chunk.text.length;
  const perChar = clusterRatioInterval(tokens, chars, rowSample.strata, { seed });
  const scale = (ratio: number) => (Number.isNaN(ratio) ? 0 : Math.round(ratio * allChars));
  const note: RowSampleNote = {
    documents: measured.length,
    population: rowSample.population,
    description: rowSample.description,
    keptPctCI: Number.isNaN(kept.value) ? { low: 0, high: 0 } : { low: 100 * kept.low, high: 100 * kept.high },
    tokensEmbeddedCI: { low: scale(perChar.low), high: scale(perChar.high) },
  };
  return { damage, tokensEmbedded: scale(perChar.value), note };
}

/**
 * Computes the rows of configs that share one splitter config (the caller groups them): the corpus is
 * split, measured and indexed once, then every retrieval setting is evaluated on the same chunks.
 * `keys[i]` is stored in row i.
 */
export async function computeRows(
  inputs: SweepInputs,
  configs: readonly ExperimentConfig[],
  keys: readonly string[],
  options: RowOptions = {},
): Promise<GridRow[]> {
  if (configs.length === 0) return [];
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
  // Tokens per chunk, for the prompt tokens each query's context costs (counted as the index's tokens are).
  const chunkTokens = new Map<number, number>();
  if (inputs.sample) {
    const measured = sampledMeasures(docs, chunks, inputs.sample, options.seed);
    ({ damage, tokensEmbedded, note: sample } = measured);
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
  const tokensOf = (index: number): number => {
    let tokens = chunkTokens.get(index);
    if (tokens === undefined) chunkTokens.set(index, (tokens = countText(chunks[index].text)));
    return tokens;
  };

  // One first-stage index per distinct retriever (+ settings), searched once per query at the deepest k. Only
  // these queries are ever asked, so BM25 indexes their terms alone (identical rankings, far fewer postings), and
  // reads chunk terms from the documents, tokenized once for every config over this docs array (same index).
  const scope = { queries: inputs.queries.map((query) => query.text), docs: inputs.docs };
  const firstStages = new Map<string, Promise<Retriever>>();
  const firstStageFor = (config: ExperimentConfig): Promise<Retriever> => {
    const r = config.retrieval;
    const id = canonicalJson([r.retriever ?? "bm25", r.retrieverSettings ?? {}]);
    let stage = firstStages.get(id);
    if (!stage) {
      const depth = Math.max(
        ...configs
          .filter((c) => canonicalJson([c.retrieval.retriever ?? "bm25", c.retrieval.retrieverSettings ?? {}]) === id)
          .map((c) => c.retrieval.k),
      );
      stage = createRetriever(r.retriever ?? "bm25", chunks, r.retrieverSettings ?? {}, scope).then((base) =>
        deepestFirst(base, depth),
      );
      firstStages.set(id, stage);
    }
    return stage;
  };

  // One reranker per name + options, shared by the depths that use it: a dense reranker fits its lsa model once
  // per chunk array and embeds each candidate once, not once per depth.
  const rerankers = new Map<string, ReturnType<typeof loadReranker>>();
  const rerankerFor = (r: ExperimentConfig["retrieval"]) => {
    const id = canonicalJson([r.reranker ?? "none", r.rerankerOptions ?? {}]);
    if (!rerankers.has(id)) rerankers.set(id, loadReranker(r.reranker ?? "none", r.rerankerOptions));
    return rerankers.get(id) as ReturnType<typeof loadReranker>;
  };

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
    // A budget ranks as deep as it needs (no reranker cut: contextOutcomes refuses one), the first stage directly.
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

/**
 * Rows of any list of configs, in the given order: configs sharing a splitter config are computed together
 * (one split, one index), so a task may bundle several splitter configs that share a warm-up.
 */
export async function computeTaskRows(
  inputs: SweepInputs,
  configs: readonly ExperimentConfig[],
  keys: readonly string[],
  options: RowOptions = {},
): Promise<GridRow[]> {
  const groups = new Map<string, number[]>();
  configs.forEach((config, i) => {
    const id = splitterKey(config);
    if (!groups.has(id)) groups.set(id, []);
    (groups.get(id) as number[]).push(i);
  });
  const out: GridRow[] = new Array(configs.length);
  for (const positions of groups.values()) {
    const rows = await computeRows(
      inputs,
      positions.map((i) => configs[i]),
      positions.map((i) => keys[i]),
      options,
    );
    positions.forEach((position, j) => (out[position] = rows[j]));
  }
  return out;
}
