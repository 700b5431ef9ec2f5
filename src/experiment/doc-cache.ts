// `seamlab seams` over a corpus stream with a per-document cache in the experiment cache: re-running after editing a
// few files recomputes those only. Splitters that must see the whole corpus (semantic) split at once, uncached.
import { basename } from "node:path";
import type { Chunk, Doc } from "../core/types";
import { canonicalJson } from "../core/canonical-json";
import type { TypeOverride } from "../corpus/type-overrides";
import { addDocSeams, createSeamTotals, finishSeamTotals, measureDocSeams, type DocSeams } from "../measure/doc-seams";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpusAsync, splitDocAsync, splitters, validateSplitterConfig } from "../splitters/registry";
import { openCache, sha256 } from "./cache";
import { codeFingerprint } from "./fingerprint";

export interface CorpusSeamsOptions {
  /** Null: no cache. */
  cacheDir: string | null;
  /** Chunk length limit in the config's unit (default: the size). */
  limit?: number;
  overrides?: readonly TypeOverride[];
  /** Units longer than this (chars) are counted apart in structural damage. */
  structureLimit: number;
  /** Called after each document, in corpus order. */
  onDoc?: (part: DocSeams, cached: boolean) => void;
}

export type CorpusSeams = Awaited<ReturnType<typeof measureCorpusSeams>>;

/** The cache key of one document's seam measures under `config`. */
export function docSeamsKey(doc: Doc, config: SplitterConfig, options: CorpusSeamsOptions): string {
  return sha256(
    canonicalJson({
      what: "doc-seams",
      id: doc.id,
      // Classification reads the file name (its extension says "source code" or "table").
      file: basename(doc.source ?? doc.id),
      text: sha256(doc.text),
      config,
      overrides: (options.overrides ?? []).map(({ glob, heading, type }) => ({ glob, heading, type })),
      structureLimit: options.structureLimit,
      code: codeFingerprint(),
    }),
  );
}

/** Measures a corpus document by document; `docs` is iterated once. */
export async function measureCorpusSeams(docs: Iterable<Doc>, config: SplitterConfig, options: CorpusSeamsOptions) {
  validateSplitterConfig(config);
  const totals = createSeamTotals();
  const partOptions = { overrides: options.overrides, structureLimit: options.structureLimit };
  let computed = 0;
  let cached = 0;
  const add = (part: DocSeams, fromCache: boolean) => {
    addDocSeams(totals, part);
    options.onDoc?.(part, fromCache);
  };
  // `rejected`: cache entries found but not used (recomputed).
  const finish = (rejected: number) => ({
    ...finishSeamTotals(totals, config, { limit: options.limit, structureLimit: options.structureLimit }),
    computed,
    cached,
    rejected,
  });
  if (Object.prototype.hasOwnProperty.call(splitters, config.splitter) && splitters[config.splitter].splitCorpusAsync) {
    const all = [...docs];
    const byDoc = new Map<string, Chunk[]>(all.map((doc) => [doc.id, []]));
    for (const chunk of await splitCorpusAsync(all, config)) byDoc.get(chunk.doc)!.push(chunk);
    for (const doc of all) {
      computed++;
      add(measureDocSeams(doc, byDoc.get(doc.id)!, config, partOptions), false);
    }
    return finish(0);
  }
  const cache = openCache(options.cacheDir);
  for (const doc of docs) {
    const key = options.cacheDir === null ? "" : docSeamsKey(doc, config, options);
    const hit = key ? (cache.get(key) as DocSeams | undefined) : undefined;
    if (hit !== undefined && hit.doc === doc.id) {
      cached++;
      add(hit, true);
      continue;
    }
    const part = measureDocSeams(doc, await splitDocAsync(doc, config), config, partOptions);
    if (key) cache.put(key, part);
    computed++;
    add(part, false);
  }
  return finish(cache.rejected);
}
