import { SeamlabError } from "../core/errors";
import { sampleIndices } from "../core/random";
import type { Doc } from "../core/types";
import { positionsByStratum } from "../stats/cluster";
import { parseSampleSizeRequest, type SampleSizeRequest } from "../stats/sample-request";
import { thousands } from "../stats/format";

/** `--sample auto|N|all`: how many documents seam and damage statistics are measured on. */
export type SampleRequest = SampleSizeRequest;

/** Default: auto, sized for a 95% CI half-width of ±1 percentage point. */
export const defaultSampleRequest: SampleRequest = { kind: "auto", halfWidth: 0.01 };

/** Reads `--sample` (or a notebook's `sample` parameter): "auto", "auto:0.02", "all" or a document count. */
export function parseSampleRequest(value: string | number | undefined, flag = "--sample"): SampleRequest {
  return parseSampleSizeRequest(value, {
    flag,
    defaultRequest: defaultSampleRequest,
    units: "documents",
    halfWidthOf: "a CI half-width",
  });
}

/**
 * What sampling needs to know of a document: its id (for the folder) and its length in characters. A corpus too
 * large to hold is sampled from outlines gathered in one streaming pass, then only the sampled documents are read.
 */
export interface DocOutline {
  id: string;
  length: number;
}

/** Either a document or its outline: everything here samples both the same way. */
export type Sampleable = Doc | DocOutline;

const lengthOf = (doc: Sampleable): number => ("text" in doc ? doc.text.length : doc.length);

/** The documents a statistic was measured on, and how they were drawn. */
export interface DocumentSample<D extends Sampleable = Doc> {
  /** Positions in the corpus's doc array, ascending. */
  indexes: number[];
  docs: D[];
  /** Stratum of each sampled doc (folder × size quartile), for a stratified cluster bootstrap. */
  strata: string[];
  population: number;
  /** e.g. "all 705 documents" or "a seeded stratified sample of 412 of 705 documents (auto: ±1.0 point)". */
  description: string;
}

/**
 * A document's stratum: its top folder and the quartile of its length in the corpus. The top folder is the first
 * path segment where ids part ways (below any folder every id shares, such as `content/en/`); folders holding
 * under 2% of the documents share one "other" stratum, so strata stay few enough to sample within.
 */
export function documentStrata(docs: readonly Sampleable[]): string[] {
  const lengths = docs.map(lengthOf).sort((a, b) => a - b);
  const cut = (q: number) => lengths[Math.min(lengths.length - 1, Math.floor(q * lengths.length))];
  const cuts = [cut(0.25), cut(0.5), cut(0.75)];
  const paths = docs.map((doc) => doc.id.split("/").slice(0, -1));
  let shared = 0;
  while (paths.length > 0 && paths.every((p) => p.length > shared && p[shared] === paths[0][shared])) shared++;
  const folders = paths.map((p) => (p.length > shared ? p[shared] : "."));
  const counts = new Map<string, number>();
  for (const f of folders) counts.set(f, (counts.get(f) ?? 0) + 1);
  const smallest = Math.max(2, 0.02 * docs.length);
  return docs.map((doc, i) => {
    const folder = (counts.get(folders[i]) ?? 0) >= smallest ? folders[i] : "(other)";
    const size = cuts.filter((c) => lengthOf(doc) > c).length;
    return `${folder}|q${size}`;
  });
}

/**
 * A seeded sample of `count` documents, stratified by folder and by length quartile with proportional
 * allocation (largest remainders), so a corpus of many short notes and a few long manuals is sampled in
 * proportion to both. Every stratum keeps at least one document when `count` allows.
 */
export function stratifiedSample(
  docs: readonly Sampleable[],
  count: number,
  seed = 1,
): { indexes: number[]; strata: string[] } {
  const all = documentStrata(docs);
  if (count >= docs.length) return { indexes: docs.map((_, i) => i), strata: all };
  const members = positionsByStratum(all.length, all) as Map<string, number[]>;
  const keys = [...members.keys()].sort();
  const exact = keys.map((k) => (members.get(k)!.length * count) / docs.length);
  const take = exact.map((x) => Math.floor(x));
  const floor = count >= keys.length ? 1 : 0;
  keys.forEach((k, i) => (take[i] = Math.min(members.get(k)!.length, Math.max(floor, take[i]))));
  let left = count - take.reduce((s, t) => s + t, 0);
  const order = keys
    .map((_, i) => i)
    .sort((a, b) => exact[b] - Math.floor(exact[b]) - (exact[a] - Math.floor(exact[a])) || a - b);
  for (let pass = 0; left > 0 && pass < 2; pass++) {
    for (const i of order) {
      if (left <= 0) break;
      if (take[i] < members.get(keys[i])!.length) {
        take[i]++;
        left--;
      }
    }
  }
  // Allocation floors can overshoot a small count: trim from the largest allocations.
  while (left < 0) {
    const i = take.indexOf(Math.max(...take));
    take[i]--;
    left++;
  }
  const indexes: number[] = [];
  keys.forEach((k, i) => {
    const list = members.get(k)!;
    for (const j of sampleIndices(list.length, take[i], seed + i)) indexes.push(list[j]);
  });
  indexes.sort((a, b) => a - b);
  return { indexes, strata: indexes.map((i) => all[i]) };
}

/**
 * Document lists that are themselves a seeded sample of a larger corpus (read without loading the rest, see
 * `readDocumentSample`): the corpus's document count and each document's stratum in it. A sample drawn from such a
 * list still says how many documents the corpus has, and keeps the corpus's strata for its bootstrap.
 */
const drawnSamples = new WeakMap<readonly Sampleable[], { population: number; strata: readonly string[] }>();

/** Marks `docs` as a sample of a corpus of `population` documents, `strata[i]` being docs[i]'s stratum in it. */
export function markDrawnSample<D extends Sampleable>(
  docs: readonly D[],
  population: number,
  strata: readonly string[],
): readonly D[] {
  drawnSamples.set(docs, { population, strata });
  return docs;
}

/** The sample for a fixed count, or every document. */
export function documentSample<D extends Sampleable>(
  docs: readonly D[],
  count: number,
  note = "",
  seed = 1,
): DocumentSample<D> {
  const drawn = drawnSamples.get(docs);
  const { indexes, strata } = stratifiedSample(docs, count, seed);
  const sample = {
    indexes,
    docs: indexes.map((i) => docs[i]),
    strata: drawn ? indexes.map((i) => drawn.strata[i]) : strata,
    population: drawn?.population ?? docs.length,
    description: "",
  };
  return withNote(sample, note);
}

/** `sample` described again with `note` in brackets (the documents stay as drawn). */
function withNote<D extends Sampleable>(sample: DocumentSample<D>, note: string): DocumentSample<D> {
  const total = thousands(sample.population);
  const bracket = note ? ` (${note})` : "";
  const description =
    sample.indexes.length >= sample.population
      ? `all ${total} documents${bracket}`
      : `a seeded sample of ${thousands(sample.indexes.length)} of ${total} documents, ` +
        `stratified by folder and size${bracket}`;
  return { ...sample, description };
}

/**
 * A seeded stratified sample holding about `maxChars` characters of the corpus (every document when the corpus
 * is no larger): for measurements whose cost grows with the text, such as running every library's splitter.
 * The count is the corpus's document count scaled by `maxChars` / total characters, since the sample is
 * proportional in length quartiles; at least `minDocs` documents (default 20) when the corpus has them.
 */
export function characterBudgetSample<D extends Sampleable>(
  docs: readonly D[],
  maxChars: number,
  {
    seed = 1,
    minDocs = 20,
    parameter = "the character budget",
  }: { seed?: number; minDocs?: number; parameter?: string } = {},
): DocumentSample<D> {
  if (!(typeof maxChars === "number" && maxChars > 0 && Number.isFinite(maxChars)))
    throw new SeamlabError(`${parameter} must be a positive number of characters; got ${String(maxChars)}.`);
  const total = docs.reduce((sum, doc) => sum + lengthOf(doc), 0);
  if (total <= maxChars) return documentSample(docs, docs.length, "", seed);
  const count = Math.min(docs.length, Math.max(minDocs, Math.floor((docs.length * maxChars) / total)));
  const sample = documentSample(docs, count, "", seed);
  const chars = sample.docs.reduce((sum, doc) => sum + lengthOf(doc), 0);
  return withNote(sample, `${thousands(chars)} characters; budget ${thousands(maxChars)}`);
}

/** Documents in the pilot that sizes an automatic sample. */
export const pilotSize = 100;

/**
 * The steps of resolving a request into a sample: `auto` starts from a pilot of `pilotSize` documents, yields it,
 * and is sent back how many documents the sample in hand says are needed (the largest n any reported ratio needs,
 * see `clusterSampleSize`); while that is more than it has, it draws a larger sample (25% to 100% larger) and
 * yields that, so a noisy pilot cannot settle the size alone. Stops at the whole corpus. `resolveSample` and
 * `resolveSampleAsync` drive it (the second when measuring a trial sample means reading and splitting files).
 */
function* sampleSteps<D extends Sampleable>(
  docs: readonly D[],
  request: SampleRequest,
  seed: number,
  countFlag: string,
): Generator<DocumentSample<D>, DocumentSample<D>, number> {
  if (request.kind === "all") return documentSample(docs, docs.length, "", seed);
  if (request.kind === "count") return documentSample(docs, request.count, `${countFlag} ${request.count}`, seed);
  let sample = documentSample(docs, pilotSize, "", seed);
  let needed: number = yield sample;
  while (needed > sample.indexes.length && sample.indexes.length < docs.length) {
    const n = sample.indexes.length;
    const next = Math.min(docs.length, Math.max(Math.ceil(n * 1.25), Math.min(needed, 2 * n)));
    sample = documentSample(docs, next, "", seed);
    needed = yield sample;
  }
  const target = `±${(100 * request.halfWidth).toFixed(1)} points`;
  const note =
    needed > docs.length ? `auto: too few for a 95% CI of ${target}` : `auto: sized for a 95% CI of ${target}`;
  return withNote(sample, note);
}

/** Resolves a request into a sample (see `sampleSteps`); `requiredFor` measures a trial sample. */
export function resolveSample<D extends Sampleable>(
  docs: readonly D[],
  request: SampleRequest,
  requiredFor: (sample: DocumentSample<D>) => number,
  seed = 1,
  countFlag = "--sample",
): DocumentSample<D> {
  const steps = sampleSteps(docs, request, seed, countFlag);
  let step = steps.next(0);
  while (!step.done) step = steps.next(requiredFor(step.value));
  return step.value;
}

/** `resolveSample` when measuring a trial sample is asynchronous. */
export async function resolveSampleAsync<D extends Sampleable>(
  docs: readonly D[],
  request: SampleRequest,
  requiredFor: (sample: DocumentSample<D>) => Promise<number>,
  seed = 1,
  countFlag = "--sample",
): Promise<DocumentSample<D>> {
  const steps = sampleSteps(docs, request, seed, countFlag);
  let step = steps.next(0);
  while (!step.done) step = steps.next(await requiredFor(step.value));
  return step.value;
}
