import { SeamlabError } from "../core/errors";
import { sampleIndices } from "../core/random";
import type { Doc } from "../core/types";
import { positionsByStratum } from "../stats/cluster";
import { parseSampleSizeRequest, type SampleSizeRequest } from "../stats/sample-request";
import { thousands } from "../stats/format";

/** `--sample auto|N|all`: how many documents seam and damage statistics are measured on. */
export type SampleRequest = SampleSizeRequest;

export const defaultSampleRequest: SampleRequest = { kind: "auto", halfWidth: 0.01 };

export function parseSampleRequest(value: string | number | undefined, flag = "--sample"): SampleRequest {
  return parseSampleSizeRequest(value, {
    flag,
    defaultRequest: defaultSampleRequest,
    units: "documents",
    halfWidthOf: "a CI half-width",
  });
}

/** A corpus too large to hold is sampled from outlines (id and length), then only the sampled documents are read. */
export interface DocOutline {
  id: string;
  length: number;
}

export type Sampleable = Doc | DocOutline;

const lengthOf = (doc: Sampleable): number => ("text" in doc ? doc.text.length : doc.length);

export interface DocumentSample<D extends Sampleable = Doc> {
  indexes: number[];
  docs: D[];
  /** folder × size quartile of each, for a stratified cluster bootstrap */
  strata: string[];
  population: number;
  description: string;
}

/** Top folder (where ids part ways) and length quartile; folders under 2% of the documents share one stratum. */
export function documentStrata(docs: readonly Sampleable[]): string[] {
  const lengths = docs.map(lengthOf).sort((a, b) => a - b);
  const cut = (q: number) => lengths[Math.min(lengths.length - 1, Math.floor(q * lengths.length))];
  const cuts = [cut(0.25), cut(0.5), cut(0.75)];
  const paths = docs.map((doc) => doc.id.split("/").slice(0, -1));
  let shared = 0;
  while (paths.length > 0 && paths.every((p) => p.length > shared && p[shared] === paths[0][shared])) shared++;
  const folders = paths.map((p) => (p.length > shared ? p[shared] : "."));
  const byFolder = positionsByStratum(folders.length, folders);
  const smallest = Math.max(2, 0.02 * docs.length);
  return docs.map((doc, i) => {
    const folder = byFolder.get(folders[i])!.length >= smallest ? folders[i] : "(other)";
    const size = cuts.filter((c) => lengthOf(doc) > c).length;
    return `${folder}|q${size}`;
  });
}

/** Proportional allocation over strata (largest remainders), at least one per stratum when `count` allows. */
export function stratifiedSample(
  docs: readonly Sampleable[],
  count: number,
  seed = 1,
): { indexes: number[]; strata: string[] } {
  const all = documentStrata(docs);
  if (count >= docs.length) return { indexes: docs.map((_, i) => i), strata: all };
  const members = positionsByStratum(all.length, all) as Map<string, number[]>;
  const groups = [...members.keys()].sort().map((key) => members.get(key)!);
  const exact = groups.map((list) => (list.length * count) / docs.length);
  const floor = count >= groups.length ? 1 : 0;
  const take = exact.map((x, i) => Math.min(groups[i].length, Math.max(floor, Math.floor(x))));
  let left = count - take.reduce((s, t) => s + t, 0);
  const order = groups
    .map((_, i) => i)
    .sort((a, b) => exact[b] - Math.floor(exact[b]) - (exact[a] - Math.floor(exact[a])) || a - b);
  for (let pass = 0; left > 0 && pass < 2; pass++) {
    for (const i of order) {
      if (left <= 0) break;
      if (take[i] < groups[i].length) {
        take[i]++;
        left--;
      }
    }
  }
  // floors can overshoot a small count: trim the largest
  while (left < 0) {
    const i = take.indexOf(Math.max(...take));
    take[i]--;
    left++;
  }
  const indexes = groups
    .flatMap((list, i) => sampleIndices(list.length, take[i], seed + i).map((j) => list[j]))
    .sort((a, b) => a - b);
  return { indexes, strata: indexes.map((i) => all[i]) };
}

// Lists that sample a larger corpus (sample-read): a sample drawn from them keeps the corpus's size and strata.
const drawnSamples = new WeakMap<readonly Sampleable[], { population: number; strata: readonly string[] }>();

export function markDrawnSample(docs: readonly Sampleable[], population: number, strata: readonly string[]): void {
  drawnSamples.set(docs, { population, strata });
}

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

/** About `maxChars` characters, for work that grows with the text (at least 20 documents). */
export function characterBudgetSample<D extends Sampleable>(
  docs: readonly D[],
  maxChars: number,
  { seed = 1, parameter = "the character budget" }: { seed?: number; parameter?: string } = {},
): DocumentSample<D> {
  if (!(typeof maxChars === "number" && maxChars > 0 && Number.isFinite(maxChars)))
    throw new SeamlabError(`${parameter} must be a positive number of characters; got ${String(maxChars)}.`);
  const total = docs.reduce((sum, doc) => sum + lengthOf(doc), 0);
  if (total <= maxChars) return documentSample(docs, docs.length, "", seed);
  const count = Math.min(docs.length, Math.max(20, Math.floor((docs.length * maxChars) / total)));
  const sample = documentSample(docs, count, "", seed);
  const chars = sample.docs.reduce((sum, doc) => sum + lengthOf(doc), 0);
  return withNote(sample, `${thousands(chars)} characters; budget ${thousands(maxChars)}`);
}

const pilotSize = 100;

// `auto` yields a pilot and is sent back the documents needed; while more, it grows the sample 25% to 100% and yields
// again, so a noisy pilot cannot settle the size alone.
function* sampleSteps<D extends Sampleable>(
  docs: readonly D[],
  request: SampleRequest,
  seed: number,
): Generator<DocumentSample<D>, DocumentSample<D>, number> {
  if (request.kind === "all") return documentSample(docs, docs.length, "", seed);
  if (request.kind === "count") return documentSample(docs, request.count, `--sample ${request.count}`, seed);
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

export function resolveSample<D extends Sampleable>(
  docs: readonly D[],
  request: SampleRequest,
  requiredFor: (sample: DocumentSample<D>) => number,
  seed = 1,
): DocumentSample<D> {
  const steps = sampleSteps(docs, request, seed);
  let step = steps.next(0);
  while (!step.done) step = steps.next(requiredFor(step.value));
  return step.value;
}

export async function resolveSampleAsync<D extends Sampleable>(
  docs: readonly D[],
  request: SampleRequest,
  requiredFor: (sample: DocumentSample<D>) => Promise<number>,
  seed = 1,
): Promise<DocumentSample<D>> {
  const steps = sampleSteps(docs, request, seed);
  let step = steps.next(0);
  while (!step.done) step = steps.next(await requiredFor(step.value));
  return step.value;
}
