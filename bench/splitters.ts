// Throughput of seamlab's `recursive` port against the real LangChain JS RecursiveCharacterTextSplitter at
// 1000/200 chars, checking the chunks are identical, on the default corpus every clone installs from the npm
// registry (bench/splitter-corpus.ts: 5.7 M characters of real, distinct text), plus opentelemetry-docs and
// tts-handbook when SEAMLAB_DATA_DIR is set (one printed line says they are skipped otherwise). Rounds last at least
// BENCH_MIN_ROUND_MS (100) of CPU each: a contender whose pass is shorter runs several passes a round, and the
// figure is the time per pass (bench/rounds.ts). A round under the minimum fails the bench.
//
//   npm run bench:splitters [-- --baseline REV]
//
// --baseline REV also times `recursive` as commit REV has it (its src/ imported beside HEAD's), in the same rounds,
// so before and after show side by side in one run. Then, for information: seamlab's `langchain` splitter as the CLI
// runs it, the other libraries' splitters closest to `recursive` (LlamaIndex, Mastra, chonkie) through their own
// APIs, a 50 MB single document through window, recursive and tokens, and sentence segmentation. Last lines:
//   recursive vs <library>: N.NNx (same chunks: yes|no)
//   recursive vs langchain on <corpus>: N.NNx (same chunks: yes|no)
// The ratio is against LangChain's own splitText alone (its async API, in-process, no span recovery), the
// conservative comparison: seamlab's `langchain` splitter also pays for locating every chunk.
import { parseArgs } from "node:util";
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import type { Chunk, Doc } from "../src/core/types";
import { locateChunks, splitLangchainMany } from "../src/splitters/langchain";
import { stopLibraryBridge } from "../src/splitters/library-bridge";
import { splitRecursive } from "../src/splitters/recursive";
import { splitDoc } from "../src/splitters/registry";
import { sentenceRegions } from "../src/text/sentences";
import { closestToRecursive, librarySplitter } from "../src/splitters/libraries";
import { locateLibraryChunks } from "../src/splitters/locate";
import { getEncoding } from "../src/text/tokens";
import type { SplitterConfig } from "../src/splitters/config";
// The same readers the splitter tests use: the real corpora, and seeded generated prose.
import { realCorpus } from "../test/helpers/corpora";
import { dataDirOrSkip } from "../test/helpers/data-dir";
import { generatedProse } from "../test/helpers/prose";
import { baselineSource } from "./baseline-source";
import { type BenchCorpus, splitterCorpus } from "./splitter-corpus";
import { type Contender, type ContenderTiming, shortRounds, timeRounds } from "./rounds";

const { values } = parseArgs({ options: { baseline: { type: "string" } } });
const rounds = Number(process.env.BENCH_ROUNDS ?? 11);
const minRoundMs = Number(process.env.BENCH_MIN_ROUND_MS ?? 100);
const bigMb = Number(process.env.BENCH_BIG_MB ?? 50);
const libraryRounds = Number(process.env.BENCH_LIBRARY_ROUNDS ?? 3);

const config: SplitterConfig = { splitter: "recursive", size: 1000, overlap: 200 };
type SplitRecursive = (doc: Doc, config: SplitterConfig) => Chunk[];

const failures: string[] = [];
const finalLines: string[] = [];

function sameChunks(a: Chunk[][], b: Chunk[][]): boolean {
  return a.every(
    (chunks, d) =>
      chunks.length === b[d].length &&
      chunks.every((c, i) => c.start === b[d][i].start && c.end === b[d][i].end && c.text === b[d][i].text),
  );
}

const describe = (t: ContenderTiming<unknown>, chars: number) =>
  `${t.name} ${t.cpuMsPerPass.toFixed(1)} ms CPU a pass (${(chars / 1e6 / (t.cpuMsPerPass / 1000)).toFixed(0)} M chars/s, ` +
  `${t.passes} passes a round, ${t.wallMsPerPass.toFixed(1)} ms wall)`;

/** recursive (and recursive at the baseline) against LangChain JS on one corpus, in the same rounds. */
async function againstLangchain(corpus: BenchCorpus, baseline?: { commit: string; split: SplitRecursive }) {
  const { docs, chars } = corpus;
  console.log(`corpus: ${corpus.name}, ${docs.length} files, ${(chars / 1e6).toFixed(2)} M chars; 1000/200 chars`);
  const langchain = new RecursiveCharacterTextSplitter({ chunkSize: 1000, chunkOverlap: 200 });
  const contenders: Contender<Chunk[][] | string[][]>[] = [
    { name: "recursive", pass: () => docs.map((d) => splitRecursive(d, config)) },
  ];
  if (baseline)
    contenders.push({
      name: `recursive@${baseline.commit.slice(0, 7)}`,
      pass: () => docs.map((d) => baseline.split(d, config)),
    });
  contenders.push({
    name: "langchain",
    pass: async () => {
      const out: string[][] = [];
      for (const d of docs) out.push(await langchain.splitText(d.text));
      return out;
    },
  });
  const timings = await timeRounds(contenders, {
    rounds,
    minRoundMs,
    onRound: (round, ts) =>
      console.log(
        `round ${round + 1}: ` +
          ts.map((t) => `${t.name} ${t.roundCpuMs[round].toFixed(0)} ms CPU / ${t.passes} passes`).join(", "),
      ),
  });
  failures.push(...shortRounds(timings, minRoundMs, corpus.name));
  const ours = timings[0].last as Chunk[][];
  const theirs = timings[timings.length - 1].last as string[][];
  // Same chunks: texts from LangChain, spans recovered by ordered search, against the port's native spans.
  const located = docs.map((d, i) => locateChunks(d, theirs[i]));
  const same = sameChunks(located, ours);
  const chunkCount = located.reduce((n, c) => n + c.length, 0);
  console.log(`median of ${rounds} rounds, ${chunkCount} chunks: ${timings.map((t) => describe(t, chars)).join("; ")}`);
  const langchainMs = timings[timings.length - 1].cpuMsPerPass;
  const sameText = (s: boolean) => (s ? "yes" : "no");
  if (baseline) {
    const before = timings[1];
    const beforeSame = sameChunks(before.last as Chunk[][], ours);
    finalLines.push(
      `${before.name} vs langchain on ${corpus.name}: ${(langchainMs / before.cpuMsPerPass).toFixed(2)}x; ` +
        `recursive is ${(before.cpuMsPerPass / timings[0].cpuMsPerPass).toFixed(2)}x as fast as ${before.name} ` +
        `(same chunks: ${sameText(beforeSame)})`,
    );
  }
  finalLines.push(
    `recursive vs langchain on ${corpus.name}: ${(langchainMs / timings[0].cpuMsPerPass).toFixed(2)}x ` +
      `(same chunks: ${sameText(same)})`,
  );
  if (!same) failures.push(`${corpus.name}: recursive's chunks differ from LangChain's`);
}

/**
 * Each library's splitter closest to `recursive`, through its own API (in-process, no worker, no span recovery),
 * against seamlab's `recursive` in the same rounds; then whether its chunks (spans recovered as `seamlab libraries`
 * does) are recursive's.
 */
async function againstLibraries(corpus: BenchCorpus) {
  const { adapters } = await import("../src/splitters/library-adapters.mjs");
  const options = { size: 1000, overlap: 200, unit: "chars" as const, encoding: "cl100k_base" };
  const { docs, chars } = corpus;
  for (const [library, splitter] of Object.entries(closestToRecursive)) {
    if (!librarySplitter(splitter)) continue; // LangChain is timed above
    const adapter = adapters[splitter];
    const [ours, theirs] = await timeRounds<Chunk[][] | string[][]>(
      [
        { name: "recursive", pass: () => docs.map((d) => splitRecursive(d, config)) },
        {
          name: splitter,
          pass: async () => {
            const out: string[][] = [];
            for (const d of docs) out.push((await adapter(d.text, options)).texts);
            return out;
          },
        },
      ],
      { rounds: libraryRounds, minRoundMs },
    );
    const located = docs.map((d, i) => locateLibraryChunks(splitter, d, (theirs.last as string[][])[i]));
    const same = sameChunks(located, ours.last as Chunk[][]);
    console.log(`${library}, median of ${libraryRounds} rounds: ${describe(theirs, chars)}; ${describe(ours, chars)}`);
    finalLines.unshift(
      `recursive vs ${library.split(" ")[0].toLowerCase()}: ${(theirs.cpuMsPerPass / ours.cpuMsPerPass).toFixed(2)}x ` +
        `(same chunks: ${same ? "yes" : "no"})`,
    );
  }
}

/** One large document: linear time, bounded memory. */
function bigDocument() {
  const text = generatedProse(bigMb * 1e6, 11);
  getEncoding();
  for (const splitter of ["window", "recursive", "tokens"]) {
    const big = splitter === "tokens" ? { splitter, size: 256, overlap: 32 } : { splitter, size: 1000, overlap: 200 };
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const chunks = splitDoc({ id: "big", text }, big);
    const used = process.cpuUsage(c0);
    const seconds = (used.user + used.system) / 1e6;
    const heap = process.memoryUsage().heapUsed / 1e6;
    console.log(
      `${bigMb} MB single doc, ${splitter} ${big.size}/${big.overlap}: ${chunks.length} chunks in ${seconds.toFixed(2)} s CPU ` +
        `(${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${(bigMb / seconds).toFixed(1)} MB/s, heap ${heap.toFixed(0)} MB)`,
    );
  }
}

/**
 * Sentence segmentation (Intl.Segmenter in windows; the segmenter alone is quadratic on one long text): the time
 * the sentences, semantic and seam-damage code pay per MB, and how it grows from 1 MB to 5 MB.
 */
function sentenceSegmentation() {
  const ms = [1, 5].map((mb) => {
    const text = generatedProse(mb * 1e6, 13);
    const c0 = process.cpuUsage();
    sentenceRegions(text);
    const used = process.cpuUsage(c0);
    return (used.user + used.system) / 1000;
  });
  console.log(
    `sentence segmentation: 1 MB ${ms[0].toFixed(0)} ms CPU, 5 MB ${ms[1].toFixed(0)} ms CPU ` +
      `(${(ms[1] / ms[0]).toFixed(1)}x for 5x the text; linear is 5x)`,
  );
}

async function main(): Promise<void> {
  const source = values.baseline === undefined ? undefined : baselineSource(values.baseline);
  const baseline = source && {
    commit: source.commit,
    split: (await source.load<{ splitRecursive: SplitRecursive }>("splitters/recursive.ts")).splitRecursive,
  };
  const corpus = splitterCorpus();
  await againstLangchain(corpus, baseline);
  if (dataDirOrSkip("bench:splitters", "opentelemetry-docs and tts-handbook, timed after the default corpus")) {
    for (const name of ["opentelemetry-docs", "tts-handbook"] as const) {
      const docs = realCorpus(name);
      await againstLangchain({ name, docs, chars: docs.reduce((n, d) => n + d.text.length, 0) }, baseline);
    }
  }

  // For information: seamlab's `langchain` splitter as the CLI runs it (LangChain in a worker + span recovery).
  const t0 = performance.now();
  const located = splitLangchainMany(corpus.docs, { splitter: "langchain", size: 1000, overlap: 200 });
  console.log(
    `seamlab langchain splitter (worker round trip + span recovery, incl. worker start): ` +
      `${(performance.now() - t0).toFixed(0)} ms wall, ${located.flat().length} chunks`,
  );
  stopLibraryBridge();

  if (libraryRounds > 0) await againstLibraries(corpus);
  if (bigMb > 0) bigDocument();
  sentenceSegmentation();

  for (const line of finalLines) console.log(line);
  for (const line of failures) console.log(`bench:splitters: FAILED: ${line}`);
  if (failures.length > 0) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
