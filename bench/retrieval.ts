/**
 * Benchmark: our BM25 (typed-array postings) against two well-known JS BM25 implementations, MiniSearch
 * and wink-bm25-text-search, on the same chunks, the same terms (all three use our tokenizer) and the same
 * queries: OpenTelemetry docs header queries over recursive 1000/200 chunks (or --corpus / --size / --overlap).
 *
 * Reports index build time and query throughput as ratios (theirs / ours, > 1 means ours is faster; median
 * of --runs runs), and how often the top-5 sets agree (mean Jaccard of the sets, share identical).
 * Settings: k1 = 1.2, b = 0.75 everywhere; MiniSearch with d = 0 (plain BM25, not BM25+), no prefix/fuzzy,
 * OR, and its coordination factor divided out (it still measures document length in *distinct* terms,
 * not term occurrences, so its scores differ from the textbook formula and its top-5 sets agree less); its
 * query time includes sorting every matching chunk, which it returns unlimited; wink with k = 1 (its idf is then Lucene's, like ours) — wink rounds each term weight to 4 decimals,
 * so near-ties may order differently.
 *
 *   npm run bench:retrieval [-- --corpus PATH --size 1000 --overlap 200 --runs 3 --json]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createRequire } from "node:module";
import MiniSearch from "minisearch";
import { loadCorpus } from "../src/corpus/load";
import { buildHeaderQueries } from "../src/retrieval/header-queries";
import { searchBm25 } from "../src/retrieval/bm25";
import { buildBm25Index } from "../src/retrieval/bm25-index";
import { jaccard } from "../src/retrieval/metrics";
import { tokenize } from "../src/retrieval/tokenize";
import { splitRecursive } from "../src/splitters/recursive";
import { median } from "../src/stats/quantiles";
import { dataDirOrSkip } from "../test/helpers/data-dir";

const require = createRequire(import.meta.url);
// wink-bm25-text-search is CommonJS without types
const winkBm25 = require("wink-bm25-text-search") as () => {
  defineConfig(config: unknown): void;
  definePrepTasks(tasks: ((text: string) => string[])[]): void;
  addDoc(doc: Record<string, string>, id: number): void;
  consolidate(precision?: number): void;
  search(text: string, limit: number): [string, number][];
};

const { values } = parseArgs({
  options: {
    corpus: { type: "string" },
    size: { type: "string", default: "1000" },
    overlap: { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
    k: { type: "string", default: "5" },
    json: { type: "boolean" },
  },
});
const runs = Number(values.runs);
const k = Number(values.k);

const data = values.corpus ? undefined : dataDirOrSkip("bench:retrieval", "opentelemetry-docs, or --corpus PATH");
if (!values.corpus && !data) process.exit(0);
const corpusPath = values.corpus ?? join(data!, "opentelemetry-docs");
const corpus = loadCorpus(corpusPath);
const set = buildHeaderQueries(corpus.docs);
const chunks = set.docs.flatMap((doc) =>
  splitRecursive(doc, { splitter: "recursive", size: Number(values.size), overlap: Number(values.overlap) }),
);
const texts = chunks.map((c) => c.text);
const queries = set.queries.map((q) => q.text);

function time<T>(fn: () => T): { seconds: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { seconds: (performance.now() - t0) / 1000, value };
}

interface Engine {
  name: string;
  build(): unknown;
  search(index: unknown, query: string): number[];
}

const engines: Engine[] = [
  {
    name: "seamlab",
    build: () => buildBm25Index(texts, { k1: 1.2, b: 0.75 }),
    search: (index, query) => searchBm25(index as ReturnType<typeof buildBm25Index>, query, k).map((r) => r.index),
  },
  {
    name: "minisearch",
    build: () => {
      const mini = new MiniSearch<{ id: number; text: string }>({
        fields: ["text"],
        tokenize: (text) => tokenize(text),
        processTerm: (term) => term,
        searchOptions: { bm25: { k: 1.2, b: 0.75, d: 0 }, prefix: false, fuzzy: false, combineWith: "OR" },
      });
      mini.addAll(texts.map((text, id) => ({ id, text })));
      return mini;
    },
    search: (index, query) =>
      // MiniSearch multiplies each score by the number of distinct query terms matched (a coordination
      // factor); divide it out so the ranking is plain BM25 like the others, ties by lower id.
      (index as MiniSearch<{ id: number; text: string }>)
        .search(query)
        .map((r) => ({ id: r.id as number, score: r.score / Math.max(1, r.terms.length) }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, k)
        .map((r) => r.id),
  },
  {
    name: "wink-bm25-text-search",
    build: () => {
      const wink = winkBm25();
      wink.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1: 1.2, b: 0.75, k: 1 } });
      wink.definePrepTasks([(text: string) => tokenize(text)]);
      texts.forEach((text, id) => wink.addDoc({ text }, id));
      wink.consolidate();
      return wink;
    },
    search: (index, query) => (index as ReturnType<typeof winkBm25>).search(query, k).map(([id]) => Number(id)),
  },
];

const results = engines.map((engine) => {
  const buildTimes: number[] = [];
  const queryTimes: number[] = [];
  let tops: number[][] = [];
  for (let run = 0; run < runs; run++) {
    const built = time(() => engine.build());
    buildTimes.push(built.seconds);
    const searched = time(() => queries.map((q) => engine.search(built.value, q)));
    queryTimes.push(searched.seconds);
    tops = searched.value;
  }
  return { name: engine.name, buildSeconds: median(buildTimes), querySeconds: median(queryTimes), tops };
});

const ours = results[0];
function agreement(a: number[][], b: number[][]) {
  let jaccardSum = 0;
  let identical = 0;
  a.forEach((top, i) => {
    const x = new Set(top);
    const y = new Set(b[i]);
    jaccardSum += jaccard(x, y);
    if (x.size === y.size && [...x].every((v) => y.has(v))) identical++;
  });
  return { meanJaccard: jaccardSum / a.length, identicalShare: identical / a.length };
}

const report = {
  corpus: corpusPath,
  chunks: chunks.length,
  chunkChars: texts.reduce((s, t) => s + t.length, 0),
  queries: queries.length,
  k,
  runs,
  engines: results.map((r) => ({
    name: r.name,
    buildSeconds: r.buildSeconds,
    querySeconds: r.querySeconds,
    queriesPerSecond: queries.length / r.querySeconds,
    buildRatioVsOurs: r.buildSeconds / ours.buildSeconds,
    queryRatioVsOurs: r.querySeconds / ours.querySeconds,
    top5AgreementWithOurs: agreement(ours.tops, r.tops),
  })),
};

if (values.json) {
  process.stdout.write(JSON.stringify(report, null, 2) + "\n");
} else {
  process.stdout.write(
    `${report.chunks} chunks (${report.chunkChars} chars), ${report.queries} header queries, top-${k}, median of ${runs} runs\n`,
  );
  for (const e of report.engines) {
    process.stdout.write(
      `${e.name.padEnd(22)} build ${e.buildSeconds.toFixed(3)} s (${e.buildRatioVsOurs.toFixed(2)}x ours)  ` +
        `queries ${e.querySeconds.toFixed(3)} s, ${e.queriesPerSecond.toFixed(0)}/s (${e.queryRatioVsOurs.toFixed(2)}x ours)  ` +
        `top-${k} agreement: Jaccard ${e.top5AgreementWithOurs.meanJaccard.toFixed(3)}, identical ${(100 * e.top5AgreementWithOurs.identicalShare).toFixed(1)}%\n`,
    );
  }
}
