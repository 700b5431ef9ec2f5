// Throughput of seamlab's `recursive` port against the real LangChain RecursiveCharacterTextSplitter on
// $SEAMLAB_DATA_DIR/opentelemetry-docs (or the pinned fastify-docs when it is unset) at 1000/200, in alternating
// rounds, checking the chunks are identical; then a 50 MB single document through window, recursive and tokens. Last line:
//   recursive vs langchain: N.NNx (same chunks: yes|no)
// preceded by one such line per other library (LlamaIndex, Mastra, chonkie), each timing that library's splitter
// closest to `recursive` (SentenceSplitter, MDocument recursive, RecursiveChunker) through its own API in-process
// at the same 1000/200 chars on the same corpus, alternating with `recursive` over BENCH_LIBRARY_ROUNDS rounds.
// The ratio is against LangChain's own splitText alone (its async API, in-process, no span recovery), which is
// the conservative comparison: seamlab's `langchain` splitter also pays for locating every chunk.
// Times are process CPU time (user + system), medians over the rounds: on a shared 2-core machine wall-clock
// time mostly measures the other processes. Wall-clock medians are printed too.
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import type { Chunk, Doc } from "../src/core/types";
import { locateChunks, splitLangchainMany } from "../src/splitters/langchain";
import { stopLangchainBridge } from "../src/splitters/langchain-bridge";
import { splitRecursive } from "../src/splitters/recursive";
import { median } from "../src/stats/quantiles";
import { splitDoc } from "../src/splitters/registry";
import { sentenceRegions } from "../src/text/sentences";
import { closestToRecursive, librarySplitter } from "../src/splitters/libraries";
import { locateLibraryChunks } from "../src/splitters/locate";
import { getEncoding } from "../src/text/tokens";
// The same readers the splitter tests use: the corpora (real or pinned), and seeded generated prose.
import { pinnedCorpus, realCorpus } from "../test/helpers/corpora";
import { dataDirOrSkip } from "../test/helpers/data-dir";
import { generatedProse } from "../test/helpers/prose";

const rounds = Number(process.env.BENCH_ROUNDS ?? 11);
const bigMb = Number(process.env.BENCH_BIG_MB ?? 50);
const libraryRounds = Number(process.env.BENCH_LIBRARY_ROUNDS ?? 3);

interface LibraryResult {
  name: string;
  splitter: string;
  recursiveMs: number;
  libraryMs: number;
  same: boolean;
}

/**
 * Times each library's splitter closest to `recursive` through its own API (in-process, no worker, no span
 * recovery) against seamlab's `recursive`, alternating order per round; then checks whether the chunks (spans
 * recovered as `seamlab libraries` does) are the same as recursive's.
 */
async function benchLibraries(docs: Doc[], chars: number, cpuMs: (since: NodeJS.CpuUsage) => number) {
  const { adapters } = await import("../src/splitters/library-adapters.mjs");
  const options = { size: 1000, overlap: 200, unit: "chars" as const, encoding: "cl100k_base" };
  const config = { splitter: "recursive", size: 1000, overlap: 200 };
  const results: LibraryResult[] = [];
  for (const [library, splitter] of Object.entries(closestToRecursive)) {
    if (!librarySplitter(splitter)) continue; // LangChain is timed above
    const adapter = adapters[splitter];
    await adapter("warm up the library: load it once before timing.", options);
    const ours: number[] = [];
    const theirs: number[] = [];
    let oursChunks: Chunk[][] = [];
    let texts: string[][] = [];
    for (let round = 0; round < libraryRounds; round++) {
      const runRecursive = () => {
        const c0 = process.cpuUsage();
        oursChunks = docs.map((d) => splitRecursive(d, config));
        ours.push(cpuMs(c0));
      };
      const runLibrary = async () => {
        const c0 = process.cpuUsage();
        const out: string[][] = [];
        for (const d of docs) out.push((await adapter(d.text, options)).texts);
        theirs.push(cpuMs(c0));
        texts = out;
      };
      if (round % 2 === 0) {
        runRecursive();
        await runLibrary();
      } else {
        await runLibrary();
        runRecursive();
      }
    }
    let same = true;
    for (let d = 0; d < docs.length && same; d++) {
      const located = locateLibraryChunks(splitter, docs[d], texts[d]);
      same =
        located.length === oursChunks[d].length &&
        located.every(
          (c, i) =>
            c.start === oursChunks[d][i].start && c.end === oursChunks[d][i].end && c.text === oursChunks[d][i].text,
        );
    }
    const result = {
      name: library.split(" ")[0].toLowerCase(),
      splitter,
      recursiveMs: median(ours),
      libraryMs: median(theirs),
      same,
    };
    const mbps = (ms: number) => (chars / 1e6 / (ms / 1000)).toFixed(1);
    console.log(
      `${splitter} (${library}), median CPU of ${libraryRounds} rounds: ${result.libraryMs.toFixed(0)} ms (${mbps(result.libraryMs)} MB/s), ` +
        `recursive ${result.recursiveMs.toFixed(0)} ms (${mbps(result.recursiveMs)} MB/s)`,
    );
    results.push(result);
  }
  return results;
}

async function main(): Promise<void> {
  // The real opentelemetry-docs when SEAMLAB_DATA_DIR names it; otherwise the pinned fastify docs every clone has.
  const real = dataDirOrSkip("bench:splitters", "opentelemetry-docs; measuring the pinned fastify-docs instead");
  const corpusName = real ? "opentelemetry-docs" : "fastify-docs";
  const docs: Doc[] = real ? realCorpus("opentelemetry-docs") : pinnedCorpus("fastify-docs");
  const chars = docs.reduce((n, d) => n + d.text.length, 0);
  console.log(`corpus: ${corpusName}, ${docs.length} files, ${(chars / 1e6).toFixed(2)} M chars; 1000/200 chars`);

  const config = { splitter: "recursive", size: 1000, overlap: 200 };
  const langchain = new RecursiveCharacterTextSplitter({ chunkSize: 1000, chunkOverlap: 200 });
  const recursiveMs: number[] = [];
  const langchainMs: number[] = [];
  const recursiveWall: number[] = [];
  const langchainWall: number[] = [];
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  let ours: Chunk[][] = [];
  let theirs: string[][] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first so warm-up and GC pressure do not favour one side.
    const runRecursive = () => {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      ours = docs.map((d) => splitRecursive(d, config));
      recursiveMs.push(cpuMs(c0));
      recursiveWall.push(performance.now() - t0);
    };
    const runLangchain = async () => {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const out: string[][] = [];
      for (const d of docs) out.push(await langchain.splitText(d.text));
      langchainMs.push(cpuMs(c0));
      langchainWall.push(performance.now() - t0);
      theirs = out;
    };
    if (round % 2 === 0) {
      runRecursive();
      await runLangchain();
    } else {
      await runLangchain();
      runRecursive();
    }
    console.log(
      `round ${round + 1}: recursive ${recursiveMs[round].toFixed(0)} ms CPU (${recursiveWall[round].toFixed(0)} wall), ` +
        `langchain ${langchainMs[round].toFixed(0)} ms CPU (${langchainWall[round].toFixed(0)} wall)`,
    );
  }

  // Same chunks: texts from LangChain, spans recovered by ordered search, against the port's native spans.
  let same = true;
  let chunkCount = 0;
  for (let d = 0; d < docs.length && same; d++) {
    const located = locateChunks(docs[d], theirs[d]);
    chunkCount += located.length;
    same =
      located.length === ours[d].length &&
      located.every((c, i) => c.start === ours[d][i].start && c.end === ours[d][i].end && c.text === ours[d][i].text);
  }
  const recursiveMedian = median(recursiveMs);
  const langchainMedian = median(langchainMs);
  const mbps = (ms: number) => (chars / 1e6 / (ms / 1000)).toFixed(1);
  console.log(
    `median CPU of ${rounds} rounds: recursive ${recursiveMedian.toFixed(0)} ms (${mbps(recursiveMedian)} M chars/s), ` +
      `langchain ${langchainMedian.toFixed(0)} ms (${mbps(langchainMedian)} M chars/s), ${chunkCount} chunks`,
  );
  console.log(
    `median wall-clock: recursive ${median(recursiveWall).toFixed(0)} ms, langchain ${median(langchainWall).toFixed(0)} ms ` +
      `(${(median(langchainWall) / median(recursiveWall)).toFixed(2)}x)`,
  );

  // For information: seamlab's `langchain` splitter as the CLI runs it (LangChain in a worker + span recovery).
  {
    const t0 = performance.now();
    const located = splitLangchainMany(docs, { splitter: "langchain", size: 1000, overlap: 200 });
    const wall = performance.now() - t0;
    console.log(
      `seamlab langchain splitter (worker round trip + span recovery, incl. worker start): ${wall.toFixed(0)} ms wall, ${located.flat().length} chunks`,
    );
    stopLangchainBridge();
  }

  const libraries = libraryRounds > 0 ? await benchLibraries(docs, chars, cpuMs) : [];

  // One large document: linear time, bounded memory.
  if (bigMb > 0) {
    const text = generatedProse(bigMb * 1e6, 11);
    getEncoding();
    for (const splitter of ["window", "recursive", "tokens"]) {
      const big = splitter === "tokens" ? { splitter, size: 256, overlap: 32 } : { splitter, size: 1000, overlap: 200 };
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const chunks = splitDoc({ id: "big", text }, big);
      const ms = cpuMs(c0);
      const wall = performance.now() - t0;
      const heap = process.memoryUsage().heapUsed / 1e6;
      console.log(
        `${bigMb} MB single doc, ${splitter} ${big.size}/${big.overlap}: ${chunks.length} chunks in ${(ms / 1000).toFixed(2)} s CPU ` +
          `(${(wall / 1000).toFixed(2)} s wall, ` +
          `${(bigMb / (ms / 1000)).toFixed(1)} MB/s, heap ${heap.toFixed(0)} MB)`,
      );
    }
  }

  // Sentence segmentation (Intl.Segmenter in windows; the segmenter alone is quadratic on one long text): the
  // time the sentences, semantic and seam-damage code pay per MB, and how it grows from 1 MB to 5 MB.
  {
    const sizes = [1, 5];
    const ms = sizes.map((mb) => {
      const text = generatedProse(mb * 1e6, 13);
      const c0 = process.cpuUsage();
      sentenceRegions(text);
      return cpuMs(c0);
    });
    console.log(
      `sentence segmentation: 1 MB ${ms[0].toFixed(0)} ms CPU, 5 MB ${ms[1].toFixed(0)} ms CPU ` +
        `(${(ms[1] / ms[0]).toFixed(1)}x for 5x the text; linear is 5x)`,
    );
  }

  // One last line per library; the ratio is the library's CPU time over recursive's (higher: recursive faster).
  for (const r of libraries) {
    console.log(
      `recursive vs ${r.name}: ${(r.libraryMs / r.recursiveMs).toFixed(2)}x (same chunks: ${r.same ? "yes" : "no"})`,
    );
  }
  console.log(
    `recursive vs langchain: ${(langchainMedian / recursiveMedian).toFixed(2)}x (same chunks: ${same ? "yes" : "no"})`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
