import type { Chunk } from "../core/types";
import { SeamlabError } from "../core/errors";
import { createBm25Retriever } from "./bm25";
import { type Bm25Options } from "./bm25-index";
import { englishStopWords } from "./tokenize";
import type { Retriever, RetrieverFactory, RetrieverScope, RetrieverSettings } from "./types";

const bm25Factory: RetrieverFactory = (chunks, settings, scope) => {
  const options: Bm25Options = { k1: settings.k1, b: settings.b, idf: settings.idf, stem: settings.stem };
  if (settings.stopWords) options.stopWords = englishStopWords;
  return createBm25Retriever(chunks, options, scope?.queries, scope?.docs);
};
// Dense and hybrid load lazily (the embedder stack is heavy) by literal paths, which tslab follows (not computed ones).
const denseFactory: RetrieverFactory = async (chunks, settings) =>
  (await import("./dense")).retrieverFactory(chunks, settings);
const hybridFactory: RetrieverFactory = async (chunks, settings, scope) => {
  const retrievers = await Promise.all([bm25Factory, denseFactory].map((part) => part(chunks, settings, scope)));
  return (await import("./hybrid")).createHybridRetriever(retrievers, {
    rrfK: settings.rrfK === undefined ? undefined : Number(settings.rrfK),
    depth: settings.depth === undefined ? undefined : Number(settings.depth),
  });
};

const factories = new Map(Object.entries({ bm25: bm25Factory, dense: denseFactory, hybrid: hybridFactory }));

export function registerRetriever(name: string, factory: RetrieverFactory): void {
  factories.set(name, factory);
}

/** The named retriever; an unregistered name loads `retrieverFactory` from `src/retrieval/<name>.ts` (a plug-in). */
export async function createRetriever(
  name: string,
  chunks: readonly Chunk[],
  settings: RetrieverSettings = {},
  scope?: RetrieverScope,
): Promise<Retriever> {
  let factory = factories.get(name);
  if (factory === undefined && /^[a-z][a-z0-9-]*$/.test(name)) {
    try {
      // With its extension: the build (build/ensure-built.cjs) holds this folder's files by file name.
      const mod = (await import(`./${name}.ts`)) as { retrieverFactory?: RetrieverFactory };
      if (typeof mod.retrieverFactory === "function") factories.set(name, (factory = mod.retrieverFactory));
    } catch {
      // not a module (the build's import throws before any promise): reported below
    }
  }
  const known = [...factories.keys()].sort().join(", ");
  if (factory === undefined) throw new SeamlabError(`unknown retriever "${name}" (--retriever). Known: ${known}.`);
  return await factory(chunks, settings, scope);
}
