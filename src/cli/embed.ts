/** `seamlab embed`: one config's chunks embedded: the embedder, over-limit inputs, cache hits, neighbour cosine. */
import {
  createEmbedder,
  embedderFlags,
  embedderFlagsHelp,
  embedderSpecFromFlags,
  type EmbedderSpec,
} from "../embed/select";
import { describeInputReport, type Embedder } from "../embed/types";
import type { CachedEmbedder } from "../embed/vector-cache";
import { neighbourSimilarity, summariseNeighbours } from "../measure/neighbour-similarity";
import { prepareSemanticSplit } from "../splitters/semantic-prepared";
import { corpusFromFlags, describeConfig, splitFlags, splitFlagsHelp, splitterConfigFromFlags } from "./flag-groups";
import { commandFlags, flagOptions, intFlag, numberFlag, refuseTogether } from "./flags";
import { createProgress, type ProgressStream } from "../experiment/progress";
import { printJson } from "./format";

/** Texts per progress tick: one vector-cache pack, so concurrency inside the embedder is kept. */
const progressSlice = 2048;

/** The embedder with a progress bar over `total` texts; cache hits count toward the bar but not the ETA's rate. */
export function withEmbedProgress(
  embedder: Embedder,
  total: number,
  options: { stream?: ProgressStream; now?: () => number } = {},
): Embedder {
  const progress = createProgress(total, { label: "embed", throttleMs: 0, ...options });
  if (!progress.enabled) return embedder;
  const cache = (embedder as Partial<CachedEmbedder>).cache;
  let seen = 0;
  return {
    name: embedder.name,
    id: embedder.id,
    maxInputTokens: embedder.maxInputTokens,
    get dimensions() {
      return embedder.dimensions;
    },
    get inputs() {
      return embedder.inputs;
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let from = 0; from < texts.length; from += progressSlice) {
        const slice = texts.slice(from, from + progressSlice);
        const hitsBefore = cache?.hits ?? 0;
        out.push(...(await embedder.embed(slice)));
        const hits = (cache?.hits ?? 0) - hitsBefore;
        if (hits > 0) progress.skip(hits);
        progress.tick(slice.length - hits);
      }
      seen += texts.length;
      if (seen >= total) progress.done();
      return out;
    },
  };
}

const help = `Usage: seamlab embed [options]

Splits a corpus with one config, embeds every chunk and reports the embedder (name, dimensions), inputs over
its limit (counted, truncated or rejected), vector-cache hits, and the cosine of neighbouring chunks beside
their real overlap. --splitter semantic embeds sentences first (--overlap 0; --semantic-percentile P or
--semantic-similarity X, --overlap-sentences 0|1|2).

${splitFlagsHelp}
${embedderFlagsHelp}
  --semantic-percentile P     semantic: break below this percentile of a doc's neighbour similarities (default 10)
  --semantic-similarity X     semantic: break below this absolute cosine instead
  --overlap-sentences N       semantic: sentences repeated after a break (0, 1 or 2)
  -h, --help                  this help`;

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    {
      ...splitFlags,
      ...embedderFlags,
      ...flagOptions(["semantic-percentile", "semantic-similarity", "overlap-sentences"]),
    },
    help,
  );
  if (!values) return 0;
  const spec: EmbedderSpec = embedderSpecFromFlags(values);
  const semantic = values.splitter === "semantic";
  refuseTogether(values, "semantic-similarity", "semantic-percentile", "give one threshold.");
  const extra = semantic
    ? {
        ...(values["semantic-similarity"] !== undefined
          ? { similarity: numberFlag(values, "semantic-similarity", 0, { min: -1, max: 1 }) }
          : { percentile: numberFlag(values, "semantic-percentile", 10, { min: 0, max: 100, unit: "percentile" }) }),
        overlapSentences: intFlag(values, "overlap-sentences", 0, { min: 0, max: 2, unit: "sentences" }),
        embedder: spec,
      }
    : undefined;
  // semantic's overlap counts sentences (--overlap-sentences); --overlap defaults to 0 for it.
  const config = splitterConfigFromFlags(
    semantic && values.overlap === undefined ? { ...values, overlap: "0" } : values,
    extra ? { extra } : {},
  );
  const { spec: corpusSpec, corpus } = corpusFromFlags(values);
  const started = performance.now();
  const chunks =
    config.splitter === "semantic"
      ? await prepareSemanticSplit(corpus.docs, config)
      : (await import("../splitters/registry")).splitCorpus(corpus.docs, config);
  const texts = chunks.map((c) => c.text);
  const embedder = await createEmbedder(spec, texts);
  const rows = await neighbourSimilarity(chunks, withEmbedProgress(embedder, chunks.length));
  const neighbours = summariseNeighbours(rows, embedder.name);
  const cache = (embedder as Partial<CachedEmbedder>).cache;
  const report = {
    corpus: corpusSpec,
    config,
    chunks: chunks.length,
    embedder: { name: embedder.name, dimensions: embedder.dimensions, maxInputTokens: embedder.maxInputTokens },
    inputs: embedder.inputs,
    inputsNote: describeInputReport(embedder),
    cache: cache ? { hits: cache.hits, misses: cache.misses, dir: cache.dir } : null,
    neighbours,
  };
  if (values.json) {
    printJson(report, (_key, value) => (value === Infinity ? "none" : Number.isNaN(value) ? null : value));
    return 0;
  }
  const f = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3));
  const lines = [
    `corpus ${corpusSpec}: ${corpus.docs.length} docs; config ${describeConfig(config)}: ${chunks.length} chunks`,
    `embedder ${embedder.name}, ${embedder.dimensions} dimensions`,
    report.inputsNote,
    cache
      ? `vector cache: ${cache.hits} hits, ${cache.misses} embedded (${cache.dir})`
      : "vector cache: not used (lsa is fitted per config)",
    `neighbouring chunks: ${neighbours.pairs} pairs, ${neighbours.overlappingPairs} share text`,
    `mean cosine: all ${f(neighbours.meanSimilarity)}, overlapping ${f(neighbours.meanSimilarityOverlapping)}, ` +
      `disjoint ${f(neighbours.meanSimilarityDisjoint)}; ` +
      `correlation with overlap share ${f(neighbours.correlation)}`,
    `time ${((performance.now() - started) / 1000).toFixed(1)} s`,
  ];
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}
