// npm run bench:dense — is the offline `lsa` embedder cheap enough to refit per sweep config?
// Fits + embeds lsa on 10k chunks of $SEAMLAB_DATA_DIR/opentelemetry-docs and compares with building a BM25
// index over the same chunks (ratio), then times exact dense search at 100k chunks.
// Prints medians of a few runs; wall-clock on this machine, so read the ratios rather than the absolute times.
import { join } from "node:path";
import { seededRandom } from "../src/core/random";
import { loadCorpus } from "../src/corpus/load";
import { fitLsa } from "../src/embed/lsa";
import { buildBm25Index } from "../src/retrieval/bm25-index";
import { buildDenseIndex, searchDense } from "../src/retrieval/dense";
import { splitRecursive } from "../src/splitters/recursive";
import { median } from "../src/stats/quantiles";
import { dataDirOrSkip } from "../test/helpers/data-dir";

function time<T>(run: () => T): [T, number] {
  const start = performance.now();
  const value = run();
  return [value, performance.now() - start];
}
async function timeAsync<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await run();
  return [value, performance.now() - start];
}

async function main(): Promise<void> {
  const data = dataDirOrSkip("bench:dense", "opentelemetry-docs");
  if (!data) return;
  const docs = loadCorpus(join(data, "opentelemetry-docs")).docs;
  const texts = docs
    .flatMap((doc) => splitRecursive(doc, { splitter: "recursive", size: 500, overlap: 0 }))
    .map((c) => c.text)
    .slice(0, 10_000);
  console.log(
    `chunks: ${texts.length} (recursive 500/0 chars of opentelemetry-docs), mean ${Math.round(texts.reduce((s, t) => s + t.length, 0) / texts.length)} chars`,
  );

  const bm25Times: number[] = [];
  for (let i = 0; i < 5; i++) bm25Times.push(time(() => buildBm25Index(texts))[1]);
  const bm25 = median(bm25Times);
  console.log(`bm25 index build: ${bm25.toFixed(0)} ms (median of 5)`);

  for (const dimensions of [128, 256]) {
    const fits: number[] = [];
    const embeds: number[] = [];
    let name = "";
    for (let i = 0; i < 3; i++) {
      const [lsa, fitMs] = time(() => fitLsa(texts, { dimensions }));
      const [, embedMs] = await timeAsync(() => lsa.embed(texts));
      fits.push(fitMs);
      embeds.push(embedMs);
      name = lsa.name;
    }
    const fit = median(fits);
    const embed = median(embeds);
    console.log(
      `${name}: fit ${fit.toFixed(0)} ms + embed ${embed.toFixed(0)} ms = ${((fit + embed) / 1000).toFixed(2)} s ` +
        `(median of 3) = ${((fit + embed) / bm25).toFixed(0)}x the BM25 index build`,
    );
  }

  const random = seededRandom(1);
  const rows = 100_000;
  const dims = 256;
  const vectors = Array.from({ length: rows }, () => Float32Array.from({ length: dims }, () => random() - 0.5));
  const [index, buildMs] = time(() => buildDenseIndex(vectors));
  const queries = Array.from({ length: 20 }, () => Float32Array.from({ length: dims }, () => random() - 0.5));
  const [, searchMs] = time(() => queries.forEach((q) => searchDense(index, q, 10)));
  console.log(
    `exact dense top-10 over ${rows} x ${dims} float32: index ${buildMs.toFixed(0)} ms, ${(searchMs / queries.length).toFixed(1)} ms per query`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
