// The semantic splitter for config-driven code: a SplitterConfig read, and the per-document cache that lets the
// synchronous registry serve chunks the asynchronous embedding made earlier.
import type { Chunk, Doc } from "../core/types";
import { canonicalJson } from "../core/canonical-json";
import { SeamlabError } from "../core/errors";
import { createEmbedder, EmbedderSpec } from "../embed/select";
import type { SplitterConfig } from "./config";
import { semanticSentenceTexts, splitSemantic, type SemanticOptions, type SemanticThreshold } from "./semantic";

/**
 * `size` = longest chunk in `unit` (0 = no limit), `overlap` 0 (it counts sentences: `extra.overlapSentences`), and
 * `extra` may hold `similarity` or `percentile`, `maxSentences`, `window`, and `embedder` (default lsa).
 */
export function semanticOptionsFromConfig(config: SplitterConfig): SemanticOptions & { embedder: EmbedderSpec } {
  if (config.overlap !== 0) {
    throw new SeamlabError(
      `--splitter semantic counts overlap in whole sentences, so --overlap must be 0 (got ${config.overlap}); ` +
        `\`seamlab embed\` takes --overlap-sentences 1 or 2 for that.`,
    );
  }
  const extra = config.extra ?? {};
  const number = (key: string) => (extra[key] === undefined ? undefined : Number(extra[key]));
  const similarity = number("similarity");
  const threshold: SemanticThreshold | undefined =
    similarity !== undefined
      ? { similarity }
      : number("percentile") !== undefined
        ? { percentile: number("percentile")! }
        : undefined;
  return {
    threshold,
    maxSentences: number("maxSentences"),
    overlapSentences: number("overlapSentences"),
    window: number("window"),
    maxLength: config.size > 0 ? config.size : undefined,
    unit: config.unit,
    encoding: config.encoding,
    embedder: (extra.embedder as EmbedderSpec | undefined) ?? { kind: "lsa" },
  };
}

const prepared = new WeakMap<Doc, Map<string, Chunk[]>>();
const configKey = (config: SplitterConfig) => canonicalJson(config);

/** Splits `docs` and remembers the chunks per doc for `splitSemanticPrepared`; lsa fits on their sentences. */
export async function prepareSemanticSplit(docs: readonly Doc[], config: SplitterConfig): Promise<Chunk[]> {
  const options = semanticOptionsFromConfig(config);
  const embedder = await createEmbedder(
    options.embedder,
    options.embedder.kind === "lsa" ? semanticSentenceTexts(docs, options) : [],
  );
  const chunks = await splitSemantic(docs, options, embedder);
  const byDoc = new Map(docs.map((doc) => [doc.id, [] as Chunk[]]));
  for (const chunk of chunks) byDoc.get(chunk.doc)!.push(chunk);
  const key = configKey(config);
  for (const doc of docs) {
    let perConfig = prepared.get(doc);
    if (!perConfig) prepared.set(doc, (perConfig = new Map()));
    perConfig.set(key, byDoc.get(doc.id)!);
  }
  return chunks;
}

/** The chunks `prepareSemanticSplit` made for this doc and config; a SeamlabError if it was not called first. */
export function splitSemanticPrepared(doc: Doc, config: SplitterConfig): Chunk[] {
  const chunks = prepared.get(doc)?.get(configKey(config));
  if (!chunks) {
    throw new SeamlabError(
      `the semantic splitter embeds sentences asynchronously: call "await prepareSemanticSplit(docs, config)" ` +
        `before splitting doc "${doc.id}" with it (notebooks and sweeps do this for you).`,
    );
  }
  return chunks.map((c) => ({ ...c }));
}
