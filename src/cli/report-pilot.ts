// `seamlab report --budget`'s retrieval pilot, run in a child process: what it holds goes away with the child instead
// of staying in the report's heap beside every kernel (0.53 GB after the pilot against 0.18 GB, 100 MB corpus).
import { totalChars } from "../core/types";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import { streamCorpus } from "../corpus/load";
import { characterBudgetSample, defaultSampleRequest } from "../corpus/sample";
import { extrapolateCost, extrapolateModel, type SampledCost } from "../experiment/budget";
import { pilotSweepCost } from "../experiment/budget-pilot";
import { resolveRowSample } from "../experiment/row-sample";
import { sweepConfigs } from "../experiment/sweep";
import { headersElseIct } from "../retrieval/headers-else-ict";
import { buildQuerySet } from "../retrieval/query-source";
import { loadRetrievalInputs } from "../study/inputs";
import type { CorpusOutline, RetrievalPilot } from "../report/plan/types";

/** Characters the retrieval pilot reads at most: a larger corpus is piloted on a seeded sample this size, scaled up. */
const pilotChars = 20_000_000;

/** A kernel's start (tslab, src/ loaded), counted once per notebook on top of loading its corpus. */
export const kernelStartMs = 8_000;

/** This process's CPU ms, every thread: the pilots' clock (on a shared machine one split's wall time was 38-143 s). */
export function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function outlineCorpus(spec: string): CorpusOutline {
  const t0 = cpuNow();
  const outlines = Array.from(streamCorpus(spec).docs(), (doc) => ({ id: doc.id, length: doc.text.length }));
  return { outlines, chars: outlines.reduce((sum, d) => sum + d.length, 0), readMs: cpuNow() - t0 };
}

/** The second, smaller sample of a large corpus's pilot: its costs and the larger one's fix a line. */
const smallPilotChars = pilotChars / 4;

/** The pilot on a seeded document sample of about `maxChars` characters: its cost model, load time and queries. */
async function pilotOnSample(
  corpus: string,
  queries: string | undefined,
  outline: CorpusOutline,
  maxChars: number,
  configs: ReturnType<typeof sweepConfigs>,
): Promise<{ sampled: SampledCost; setupMs: number; loadedMs: number; queries: number }> {
  const t0 = cpuNow();
  const sample = characterBudgetSample(outline.outlines, maxChars, { parameter: "the budget pilot" });
  const ids = new Set(sample.docs.map((d) => d.id));
  const docs = [...streamCorpus(corpus).docs(ids)];
  const chars = totalChars(docs);
  const options = { corpusName: corpus };
  const set =
    queries !== undefined
      ? buildQuerySet(queries, docs, options)
      : headersElseIct((source) => buildQuerySet(source, docs, options)).value;
  const loadedMs = cpuNow() - t0;
  // The notebooks' sweeps of a corpus this large measure seam damage on a document sample: so does the pilot, or
  // it would time segmenting all 20 M characters and scale that up (276 s per split estimated at 1 GB, not 100 s).
  const rowSample = resolveRowSample(set.docs, configs, defaultSampleRequest, 1, 0);
  const inputs = { docs: set.docs, queries: set.queries, ...(rowSample ? { sample: rowSample } : {}) };
  const pilot = await pilotSweepCost(inputs, configs, { now: cpuNow, separateSetup: true });
  return { sampled: { chars, model: pilot.model }, setupMs: pilot.setupMs, loadedMs, queries: set.queries.length };
}

/**
 * A sweep's two end configs on 200 queries: the whole corpus up to `pilotChars`, else two seeded samples extrapolated
 * along their line; also what loading the corpus and queries costs a kernel. CPU times; `spentMs` is wall time.
 */
export async function retrievalPilot(
  corpus: string,
  queries: string | undefined,
  outline: CorpusOutline,
): Promise<RetrievalPilot> {
  const t0 = cpuNow();
  const wall = performance.now();
  const configs = sweepConfigs({ splitter: "langchain", size: 1000, overlaps: [0, 500], ks: [5] });
  if (outline.chars <= pilotChars) {
    const whole = loadRetrievalInputs(corpus, queries, { querySample: "all" });
    const loadedMs = cpuNow() - t0;
    const pilot = await pilotSweepCost(whole, configs, { now: cpuNow, separateSetup: true });
    return {
      model: pilot.model,
      population: whole.queries.length,
      scale: 1,
      sampleChars: outline.chars,
      loadMs: kernelStartMs + Math.max(outline.readMs, loadedMs) + pilot.setupMs,
      spentMs: performance.now() - wall,
    };
  }
  // An untimed warm-up: once-per-process costs (the LangChain thread, compiling hot code) would otherwise fall on
  // the first timed sample and tilt the line. (Too small a sample may lack queries: the timed ones then say so.)
  await pilotOnSample(corpus, queries, outline, 1_000_000, configs).catch(() => undefined);
  const large = await pilotOnSample(corpus, queries, outline, pilotChars, configs);
  const small = await pilotOnSample(corpus, queries, outline, smallPilotChars, configs);
  const scale = outline.chars / Math.max(1, large.sampled.chars);
  const extrapolated = (ms: (pilot: typeof large) => number) =>
    extrapolateCost(
      { chars: small.sampled.chars, ms: ms(small) },
      { chars: large.sampled.chars, ms: ms(large) },
      outline.chars,
    );
  const loadedMs = extrapolated((p) => p.loadedMs);
  return {
    model: extrapolateModel(small.sampled, large.sampled, outline.chars),
    population: Math.round(large.queries * scale),
    scale,
    sampleChars: large.sampled.chars,
    smallSampleChars: small.sampled.chars,
    // a kernel starts, reads the corpus and builds its queries; its first sweep sets up what every split shares
    loadMs: kernelStartMs + Math.max(outline.readMs, loadedMs) + extrapolated((p) => p.setupMs),
    spentMs: performance.now() - wall,
  };
}

type ChildAnswer = { outline: CorpusOutline; pilot: RetrievalPilot } | { error: string };

/** The corpus's outline and the retrieval pilot, measured in a child process; its SeamlabError is thrown here. */
export function retrievalPilotInChild(
  corpus: string,
  queries: string | undefined,
): Promise<{ outline: CorpusOutline; pilot: RetrievalPilot }> {
  const entry = join(projectRoot(), "src", "cli", "report-pilot-entry.mjs");
  const child = spawn(process.execPath, [entry, JSON.stringify({ corpus, queries })], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const text = Buffer.concat(chunks).toString("utf8");
      let answer: ChildAnswer;
      try {
        answer = JSON.parse(text) as ChildAnswer;
      } catch {
        reject(new Error(`the budget pilot's process ended (exit ${code}) without an answer: ${text.slice(0, 500)}`));
        return;
      }
      if ("error" in answer) reject(new SeamlabError(answer.error));
      else resolve(answer);
    });
  });
}

export async function answerPilot(argument: string): Promise<void> {
  const { corpus, queries } = JSON.parse(argument) as { corpus: string; queries?: string };
  let answer: ChildAnswer;
  try {
    const outline = outlineCorpus(corpus);
    answer = { outline, pilot: await retrievalPilot(corpus, queries, outline) };
  } catch (error) {
    if (!(error instanceof SeamlabError)) throw error;
    answer = { error: error.message };
  }
  await new Promise<void>((resolve) => process.stdout.write(JSON.stringify(answer), () => resolve()));
}
