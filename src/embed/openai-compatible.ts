import { SeamlabError } from "../core/errors";
import { encodeTokens, tokenOffsets } from "../text/tokens";
import { HttpRetryOptions, openAiEndpoint, postJsonWithRetries, readBearerKey, RequestBudget } from "./http-retry";
import { applyInputLimit } from "./input-limit";
import { Embedder, emptyInputReport, normaliseInPlace, OverLimitPolicy } from "./types";

export interface OpenAiCompatibleOptions extends HttpRetryOptions {
  /** Base URL (".../v1" or the server root) or the full ".../embeddings" endpoint. */
  url: string;
  model: string;
  /** The variable holding the API key (default SEAMLAB_EMBED_KEY); unset = no auth header. */
  keyEnv?: string;
  /** Where to read `keyEnv` from (tests); default process.env. */
  environment?: Record<string, string | undefined>;
  batchSize?: number;
  /** Requests in flight at once: bounds how hard seamlab pushes a server that scales out by itself. */
  concurrency?: number;
  /** Most requests sent, retries included. */
  maxRequests?: number;
  /** The model's input limit in cl100k tokens (default 8191, OpenAI's text-embedding-3 limit). */
  maxInputTokens?: number;
  overLimit?: OverLimitPolicy;
}

export function embeddingsEndpoint(url: string): string {
  return openAiEndpoint(url, "embeddings", "--embed-url", "http://127.0.0.1:8080/v1");
}

/** An embedder on OpenAI's `POST /v1/embeddings` (vLLM, TEI, Ollama...); dimensions come from the first answer. */
export function openAiCompatibleEmbedder(options: OpenAiCompatibleOptions): Embedder {
  const endpoint = embeddingsEndpoint(options.url);
  if (!options.model)
    throw new SeamlabError("--embed-model is required with --embed-url (the model name the server expects).");
  const { auth } = readBearerKey(options.keyEnv, "SEAMLAB_EMBED_KEY", "--embed-key-env", options.environment);
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new SeamlabError(`--embed-batch must be >= 1, got ${batchSize}.`);
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new SeamlabError(`--embed-concurrency must be >= 1, got ${concurrency}.`);
  const maxInputTokens = options.maxInputTokens ?? 8191;
  const policy = options.overLimit ?? "reject";
  const total = options.maxRequests ?? 1000;
  const budget: RequestBudget = { remaining: total, total };
  const inputs = emptyInputReport();
  const host = new URL(endpoint).host;
  const what = `openai-compatible embedder (model ${options.model} at ${endpoint})`;
  const embedder: Embedder = {
    name: `${options.model} via openai-compatible API at ${host}`,
    id: `openai-compatible:${endpoint}:${options.model}:limit=${maxInputTokens}:${policy}`,
    dimensions: 0,
    maxInputTokens,
    inputs,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const measured = applyInputLimit(
        texts,
        maxInputTokens,
        {
          count: (text) => encodeTokens(text).length,
          truncate: (text, limit) => text.slice(0, tokenOffsets(text).starts[limit]),
        },
        policy,
        inputs,
        what,
      );
      const batches: string[][] = [];
      for (let from = 0; from < measured.length; from += batchSize)
        batches.push(measured.slice(from, from + batchSize));
      const answers: Float32Array[][] = new Array(batches.length);
      // The first failure stops new requests; those in flight finish (their vectors dropped), then it is thrown.
      let next = 0;
      let failure: { error: unknown } | undefined;
      const lane = async () => {
        while (failure === undefined && next < batches.length) {
          const at = next++;
          const batch = batches[at];
          try {
            const body = await postJsonWithRetries(
              { model: options.model, input: batch, encoding_format: "float" },
              { what, url: endpoint, ...auth, budget, budgetFlag: "--embed-max-requests" },
              options,
            );
            answers[at] = readEmbeddings(body, batch.length, what);
          } catch (error) {
            failure ??= { error };
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, lane));
      if (failure !== undefined) throw failure.error;
      const out: Float32Array[] = [];
      for (const vectors of answers) {
        for (const vector of vectors) {
          if (embedder.dimensions === 0) embedder.dimensions = vector.length;
          if (vector.length !== embedder.dimensions) {
            throw new SeamlabError(
              `${what}: got a ${vector.length}-dimensional vector after ${embedder.dimensions}-dimensional ones.`,
            );
          }
          out.push(normaliseInPlace(vector));
        }
        inputs.embedded += vectors.length;
      }
      return out;
    },
  };
  return embedder;
}

/** Validates `{data: [{index, embedding: number[]}]}` and returns the vectors in input order. */
function readEmbeddings(body: unknown, expected: number, what: string): Float32Array[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) {
    throw new SeamlabError(
      `${what}: malformed answer, expected {"data": [{"index", "embedding"}...]} but "data" is ${describe(data)}.`,
    );
  }
  if (data.length !== expected) {
    throw new SeamlabError(`${what}: malformed answer, sent ${expected} inputs but got ${data.length} embeddings.`);
  }
  const out: (Float32Array | undefined)[] = new Array(expected);
  data.forEach((item: unknown, position: number) => {
    const entry = item as { index?: unknown; embedding?: unknown } | null;
    const index = typeof entry?.index === "number" ? entry.index : position;
    const embedding = entry?.embedding;
    if (!Number.isInteger(index) || index < 0 || index >= expected || out[index] !== undefined) {
      throw new SeamlabError(
        `${what}: malformed answer, data[${position}].index is ` +
          `${describe(entry?.index)} (missing, repeated or out of range).`,
      );
    }
    if (
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      !embedding.every((x) => typeof x === "number" && Number.isFinite(x))
    ) {
      throw new SeamlabError(
        `${what}: malformed answer, data[${position}].embedding must be a non-empty list of finite numbers ` +
          `(base64 encoding is not supported), got ${describe(embedding)}.`,
      );
    }
    out[index] = Float32Array.from(embedding as number[]);
  });
  return out as Float32Array[];
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
