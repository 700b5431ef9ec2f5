import { SeamlabError } from "../core/errors";
import { fitLsa, type LsaOptions } from "./lsa";
import { openAiCompatibleEmbedder, type OpenAiCompatibleOptions } from "./openai-compatible";
import type { TransformersOptions } from "./transformers";
import { Embedder } from "./types";
import { withVectorCache } from "./vector-cache";

/** Which embedder to use, as plain JSON (sweeps key caches on it; the CLI builds it from flags). */
export type EmbedderSpec =
  | ({ kind: "lsa" } & Pick<LsaOptions, "dimensions" | "seed" | "dimensionsFlag">)
  | ({ kind: "transformers"; cache?: boolean } & TransformersOptions)
  | ({ kind: "openai-compatible"; cache?: boolean } & Pick<
      OpenAiCompatibleOptions,
      "url" | "model" | "keyEnv" | "batchSize" | "concurrency" | "maxRequests" | "maxInputTokens" | "overLimit"
    >);

// A model loads once per process even when a sweep asks for it per config.
const loaded = new Map<string, Promise<Embedder>>();

/** A spec's embedder for `texts` (lsa fits on them); fixed models load once, vector-cached unless `cache: false`. */
export async function createEmbedder(
  spec: EmbedderSpec,
  texts: readonly string[],
  cacheDir?: string,
): Promise<Embedder> {
  if (spec.kind === "lsa")
    return fitLsa([...texts], { dimensions: spec.dimensions, seed: spec.seed, dimensionsFlag: spec.dimensionsFlag });
  const key = JSON.stringify(spec) + (cacheDir ?? "");
  let embedder = loaded.get(key);
  if (!embedder) {
    embedder = makeFixedModel(spec).then((inner) => (spec.cache === false ? inner : withVectorCache(inner, cacheDir)));
    loaded.set(key, embedder);
    embedder.catch(() => loaded.delete(key));
  }
  return embedder;
}

async function makeFixedModel(spec: Exclude<EmbedderSpec, { kind: "lsa" }>): Promise<Embedder> {
  if (spec.kind === "transformers") {
    const { transformersEmbedder } = await import("./transformers");
    return transformersEmbedder(spec);
  }
  return openAiCompatibleEmbedder(spec);
}

/** parseArgs option declarations for the embedder flags (spread into a command's `options`). */
export const embedderFlags = {
  embedder: { type: "string" },
  "embed-dims": { type: "string" },
  "model-dir": { type: "string" },
  pooling: { type: "string" },
  "embed-url": { type: "string" },
  "embed-model": { type: "string" },
  "embed-key-env": { type: "string" },
  "embed-batch": { type: "string" },
  "embed-concurrency": { type: "string" },
  "embed-max-requests": { type: "string" },
  "embed-max-tokens": { type: "string" },
  "embed-over-limit": { type: "string" },
} as const;

export const embedderFlagsHelp = [
  "  --embedder lsa|transformers|openai-compatible   (default lsa: TF-IDF+SVD fitted on the chunks, offline)",
  "  --embed-dims N            lsa dimensions (default 256)",
  "  --model-dir DIR           transformers: local transformers.js model folder (never downloads)",
  "  --pooling mean|cls        transformers: pooling the model card prescribes (default mean)",
  "  --embed-url URL           openai-compatible: server base URL or /v1/embeddings endpoint",
  "  --embed-model NAME        openai-compatible: model name",
  "  --embed-key-env VAR       environment variable holding the API key (default SEAMLAB_EMBED_KEY)",
  "  --embed-batch N           texts per request (default 64)",
  "  --embed-concurrency N     openai-compatible: requests in flight at once (default 4)",
  "  --embed-max-requests N    request budget, retries included (default 1000)",
  "  --embed-max-tokens N      input limit in tokens (openai-compatible, default 8191)",
  "  --embed-over-limit truncate|reject   what to do with longer inputs (always counted and reported)",
].join("\n");

/** Upper bounds of the numeric flags (beyond them is a typo, and would run for hours). */
const FLAG_MAX: Record<string, [number, string]> = {
  "embed-dims": [65_536, "dimensions"],
  "embed-batch": [10_000, "texts"],
  "embed-max-requests": [1_000_000, "requests"],
  "embed-max-tokens": [1_000_000, "tokens"],
};

function positiveInt(values: Record<string, unknown>, flag: string): number | undefined {
  const raw = values[flag];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const [max, unit] = FLAG_MAX[flag] ?? [Number.MAX_SAFE_INTEGER, ""];
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max)
    throw new SeamlabError(`--${flag} must be a whole number from 1 to ${max} ${unit}; got "${text}".`);
  return Number(text);
}

function choice<T extends string>(values: Record<string, unknown>, flag: string, allowed: [T, T]): T | undefined {
  const raw = values[flag];
  if (raw === undefined || allowed.includes(raw as T)) return raw as T | undefined;
  throw new SeamlabError(`--${flag} must be ${allowed[0]} or ${allowed[1]}, got "${String(raw)}".`);
}

/** Builds a spec from parsed CLI flags, naming the flag that is missing or wrong. */
export function embedderSpecFromFlags(values: Record<string, unknown>): EmbedderSpec {
  const kind = values.embedder === undefined ? "lsa" : String(values.embedder);
  if (kind === "lsa") {
    const dimensions = positiveInt(values, "embed-dims");
    return dimensions === undefined ? { kind } : { kind, dimensions, dimensionsFlag: "--embed-dims" };
  }
  if (kind === "transformers") {
    if (values["model-dir"] === undefined)
      throw new SeamlabError(
        "--embedder transformers needs --model-dir DIR (a local model folder; nothing is downloaded).",
      );
    return {
      kind,
      modelDir: String(values["model-dir"]),
      pooling: choice(values, "pooling", ["mean", "cls"]),
      batchSize: positiveInt(values, "embed-batch"),
      overLimit: choice(values, "embed-over-limit", ["truncate", "reject"]),
    };
  }
  if (kind === "openai-compatible") {
    if (values["embed-url"] === undefined)
      throw new SeamlabError("--embedder openai-compatible needs --embed-url URL.");
    if (values["embed-model"] === undefined)
      throw new SeamlabError("--embedder openai-compatible needs --embed-model NAME.");
    return {
      kind,
      url: String(values["embed-url"]),
      model: String(values["embed-model"]),
      keyEnv: values["embed-key-env"] === undefined ? undefined : String(values["embed-key-env"]),
      batchSize: positiveInt(values, "embed-batch"),
      concurrency: positiveInt(values, "embed-concurrency"),
      maxRequests: positiveInt(values, "embed-max-requests"),
      maxInputTokens: positiveInt(values, "embed-max-tokens"),
      overLimit: choice(values, "embed-over-limit", ["truncate", "reject"]),
    };
  }
  throw new SeamlabError(`unknown --embedder "${kind}". Known: lsa, transformers, openai-compatible.`);
}
