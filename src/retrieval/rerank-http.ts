import type { Chunk } from "../core/types";
import { SeamlabError } from "../core/errors";
import { HttpRetryOptions, parseHttpUrl, postJsonWithRetries, readBearerKey, RequestBudget } from "../embed/http-retry";
import type { AsyncReranker, RankedChunk } from "./types";

/**
 * The two `/rerank` request shapes in common use:
 * - "cohere": `{model, query, documents: string[]}` → `{results: [{index, relevance_score}]}` (Cohere's API and the
 *   servers that copy it: Jina, OpenVINO Model Server, LiteLLM's proxy, vLLM);
 * - "tei": Hugging Face text-embeddings-inference, `{query, texts: string[], truncate}` → `[{index, score}]`.
 * Answers are read in either shape whichever was sent.
 */
export type RerankProtocol = "cohere" | "tei";

export interface HttpRerankerOptions extends HttpRetryOptions {
  /** The full endpoint, e.g. http://127.0.0.1:8080/rerank or https://host/v1/rerank. */
  url: string;
  protocol?: RerankProtocol;
  /** Sent as `model` in the cohere shape (required by hosted APIs, ignored by most local servers). */
  model?: string;
  /** Environment variable with the API key (default SEAMLAB_RERANK_KEY); unset = no auth header. */
  keyEnv?: string;
  environment?: Record<string, string | undefined>;
  /** Documents per request (default 100); more candidates are split over several requests. */
  batchSize?: number;
  /** Most requests this reranker may send, retries included (default 1000). */
  maxRequests?: number;
}

export function httpReranker(options: HttpRerankerOptions): AsyncReranker {
  const endpoint = parseHttpUrl(options.url, "--rerank-url", "http://127.0.0.1:8080/rerank");
  const protocol = options.protocol ?? "cohere";
  if (protocol !== "cohere" && protocol !== "tei")
    throw new SeamlabError(`--rerank-protocol must be cohere or tei, got "${String(protocol)}".`);
  const { auth } = readBearerKey(options.keyEnv, "SEAMLAB_RERANK_KEY", "--rerank-key-env", options.environment);
  const batchSize = options.batchSize ?? 100;
  const total = options.maxRequests ?? 1000;
  const budget: RequestBudget = { remaining: total, total };
  const url = endpoint.toString();
  const what = `http reranker (${protocol} protocol at ${url})`;

  const scoreBatch = async (query: string, texts: string[]): Promise<number[]> => {
    const body =
      protocol === "cohere"
        ? { ...(options.model ? { model: options.model } : {}), query, documents: texts }
        : { query, texts, truncate: true };
    const answer = await postJsonWithRetries(
      body,
      {
        what,
        url,
        ...auth,
        budget,
        budgetFlag: "--rerank-max-requests",
      },
      options,
    );
    return readRerankScores(answer, texts.length, what);
  };

  return {
    name: `http-rerank(${protocol}${options.model ? `, ${options.model}` : ""} at ${endpoint.host})`,
    async rerank(
      query: string,
      candidates: readonly RankedChunk[],
      chunks: readonly Chunk[],
      k: number,
    ): Promise<RankedChunk[]> {
      if (k <= 0 || candidates.length === 0) return [];
      const scores: number[] = [];
      for (let from = 0; from < candidates.length; from += batchSize) {
        const batch = candidates.slice(from, from + batchSize).map((c) => chunks[c.index].text);
        scores.push(...(await scoreBatch(query, batch)));
      }
      return candidates
        .map((c, rank) => ({ index: c.index, score: scores[rank], rank }))
        .sort((a, b) => b.score - a.score || a.rank - b.rank)
        .slice(0, k)
        .map(({ index, score }) => ({ index, score }));
    },
  };
}

/**
 * Scores in input order from `{results: [{index, relevance_score}]}` or `[{index, score}]`; every input must get one.
 */
export function readRerankScores(answer: unknown, expected: number, what: string): number[] {
  const list = Array.isArray(answer) ? answer : (answer as { results?: unknown } | null)?.results;
  if (!Array.isArray(list)) {
    throw new SeamlabError(
      `${what}: malformed answer, expected {"results": [{"index", "relevance_score"}]} or [{"index", "score"}].`,
    );
  }
  const scores: (number | undefined)[] = new Array(expected).fill(undefined);
  list.forEach((item: unknown, position: number) => {
    const entry = item as { index?: unknown; relevance_score?: unknown; score?: unknown } | null;
    const index = entry?.index;
    const score = entry?.relevance_score ?? entry?.score;
    if (
      typeof index !== "number" ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= expected ||
      scores[index] !== undefined
    ) {
      throw new SeamlabError(
        `${what}: malformed answer, entry ${position} has index ` +
          `${JSON.stringify(index)} (missing, repeated or out of range).`,
      );
    }
    if (typeof score !== "number" || !Number.isFinite(score)) {
      throw new SeamlabError(`${what}: malformed answer, entry ${position} has no finite relevance_score/score.`);
    }
    scores[index] = score;
  });
  const missing = scores.findIndex((s) => s === undefined);
  if (missing >= 0) {
    throw new SeamlabError(
      `${what}: the server scored ${list.length} of ${expected} documents ` +
        `(document ${missing} has no score); is top_n set on the server?`,
    );
  }
  return scores as number[];
}
